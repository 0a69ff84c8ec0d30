// Package profile describes message libraries as data: which types are
// messages, which methods settle them and how, which calls publish and
// where their subject is. The contract model and the checks know a library
// only through its profile; NATS (*nats.Msg) and JetStream (jetstream.Msg)
// are the built-in ones, and a library with another ack API is a profile
// file (JSON, loaded with -retrycontract.profiles) plus tests.
package profile

import (
	"encoding/json"
	"fmt"
	"go/token"
	"os"
	"slices"
	"strings"
)

// Settlement is what an ack method tells the broker.
type Settlement string

// The settlements of CONTRACT.md.
const (
	Done       Settlement = "done"        // Ack: never redelivered
	RetryNow   Settlement = "retry-now"   // bare Nak: redelivered at once
	RetryLater Settlement = "retry-later" // Nak with a delay
	Terminate  Settlement = "terminate"   // Term: never redelivered, not done
	Progress   Settlement = "progress"    // InProgress: settles nothing
)

var settlements = []Settlement{Done, RetryNow, RetryLater, Terminate, Progress}

// TypeName names a type: its package's import path and its name.
type TypeName struct {
	Path string `json:"path"`
	Name string `json:"name"`
}

func (t TypeName) String() string { return t.Path + "." + t.Name }

// Profile is one message library.
type Profile struct {
	// Name names the library in messages and errors.
	Name string `json:"name"`
	// Messages are the library's message types; a pointer to one is a
	// message too.
	Messages []TypeName `json:"messages"`
	// AckMethods maps the name of each method that settles a message to
	// its settlement. Ack methods return an error and take no parameters
	// but options, except the RetryLater one, which takes the delay.
	AckMethods map[string]Settlement `json:"ack_methods"`
	// Structural: any type whose method set has the Done method with the
	// RetryNow or Terminate method is a message of this library too (the
	// interfaces handlers are written against, for testability).
	Structural bool `json:"structural"`
	// Payload names the methods or fields of a message that give its
	// payload (Data): what a decode of the payload takes.
	Payload []string `json:"payload,omitempty"`
	// Decode names the methods of a message that decode its payload into
	// a value (msg.Decode(&v) error): their error branch is a
	// decode-failure path, as json.Unmarshal's of the payload is.
	Decode []string `json:"decode,omitempty"`
	// Packages are the library's import paths: their calls other than
	// publishes never write a dead-letter queue.
	Packages []string `json:"packages"`
	// Publish names the calls that publish: their subject decides whether
	// they write a dead-letter queue. The subject is the first string
	// parameter, or the subject set on a publish-message parameter.
	Publish []string `json:"publish"`
	// PublishMsg is the type of message a publish may take, whose Subject
	// field is the subject; PublishMsgNew is its constructor, whose first
	// argument is the subject. Both optional.
	PublishMsg    *TypeName `json:"publish_msg,omitempty"`
	PublishMsgNew *TypeName `json:"publish_msg_new,omitempty"`
	// Store names the library's methods that store a value (a key-value
	// bucket's Put, Create and Update, an object store's Put): on a
	// receiver named like a dead-letter queue they write it, although
	// the library's other calls never do.
	Store []string `json:"store,omitempty"`
	// Buffered is the type whose BufferedPublish methods only buffer
	// (core NATS's *nats.Conn Publish): their nil error means "queued",
	// not "stored", so a DLQ write through one is unconfirmed. (A request
	// is confirmed by its reply.)
	Buffered        *TypeName `json:"buffered,omitempty"`
	BufferedPublish []string  `json:"buffered_publish,omitempty"`
	// Async names the publishes that return a future (PublishAsync), and
	// Await the calls that wait for one (Ok, Err, PublishAsyncComplete):
	// an async DLQ write is unconfirmed until one of them runs.
	Async []string `json:"async,omitempty"`
	Await []string `json:"await,omitempty"`
	// Redelivery names where messages come from that nothing redelivers
	// (redelivery.go). Optional.
	Redelivery *Redelivery `json:"redelivery,omitempty"`
}

// Method returns the name of the (first, by name) method of p that
// settles as s, or "".
func (p *Profile) Method(s Settlement) string {
	first := ""
	for name, t := range p.AckMethods {
		if t == s && (first == "" || name < first) {
			first = name
		}
	}
	return first
}

// DelayedRetry is the method that redelivers after a delay: the fix for a
// bare retry on a transient path (NakWithDelay).
func (p *Profile) DelayedRetry() string { return p.Method(RetryLater) }

// Validate reports the first thing wrong with p.
func (p *Profile) Validate() error {
	if p.Name == "" {
		return fmt.Errorf("profile without a name")
	}
	if len(p.AckMethods) == 0 {
		return fmt.Errorf("profile %s: no ack_methods", p.Name)
	}
	for name, s := range p.AckMethods {
		if !token.IsIdentifier(name) {
			return fmt.Errorf("profile %s: ack method %q is not a Go method name", p.Name, name)
		}
		if !slices.Contains(settlements, s) {
			return fmt.Errorf("profile %s: ack method %s: settlement %q is not one of %v", p.Name, name, s, settlements)
		}
	}
	if p.Method(Done) == "" {
		return fmt.Errorf("profile %s: no ack method settles as %q", p.Name, Done)
	}
	for _, t := range append(slices.Clone(p.Messages), deref(p.PublishMsg, p.PublishMsgNew, p.Buffered)...) {
		if t.Path == "" || !token.IsIdentifier(t.Name) {
			return fmt.Errorf("profile %s: bad type or function %q: want an import path and a name", p.Name, t)
		}
	}
	for _, name := range slices.Concat(p.Publish, p.Store, p.BufferedPublish, p.Async, p.Await) {
		if !token.IsIdentifier(name) {
			return fmt.Errorf("profile %s: publish, store or await name %q is not a Go name", p.Name, name)
		}
	}
	for _, name := range p.Decode {
		if !token.IsIdentifier(name) {
			return fmt.Errorf("profile %s: decode %q is not a Go method name", p.Name, name)
		}
	}
	return nil
}

// FilesValue is the list of profile files, as a flag.Value over
// *profiles: setting it loads and validates each file (comma-separated)
// and puts its profiles after the built-in ones.
type FilesValue struct{ Profiles *[]*Profile }

func (v FilesValue) String() string {
	if v.Profiles == nil {
		return ""
	}
	var names []string
	for _, p := range *v.Profiles {
		names = append(names, p.Name)
	}
	return strings.Join(names, ",")
}

// Set loads the profiles of the comma-separated files of s.
func (v FilesValue) Set(s string) error {
	out := Builtin()
	for path := range strings.SplitSeq(s, ",") {
		if path = strings.TrimSpace(path); path == "" {
			continue
		}
		p, err := Load(path)
		if err != nil {
			return err
		}
		out = append(out, p)
	}
	*v.Profiles = out
	return nil
}

func deref(ts ...*TypeName) []TypeName {
	var out []TypeName
	for _, t := range ts {
		if t != nil {
			out = append(out, *t)
		}
	}
	return out
}

// Load reads a profile from a JSON file and validates it.
func Load(path string) (*Profile, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	var p Profile
	if err := dec.Decode(&p); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return &p, nil
}

// natsAckMethods are the ack methods of both NATS message types.
var natsAckMethods = map[string]Settlement{
	"Ack": Done, "AckSync": Done, "DoubleAck": Done,
	"Nak": RetryNow, "NakWithDelay": RetryLater,
	"Term": Terminate, "TermWithReason": Terminate,
	"InProgress": Progress,
}

var (
	natsPublish = []string{"Publish", "PublishMsg", "PublishRequest", "PublishAsync", "PublishMsgAsync", "Request"}
	natsStore   = []string{"Put", "PutString", "PutBytes", "PutReader", "PutFile", "Create", "Update"}
	natsAsync   = []string{"PublishAsync", "PublishMsgAsync"}
	natsAwait   = []string{"Ok", "Err", "PublishAsyncComplete"}
)

// NATS is github.com/nats-io/nats.go's *nats.Msg, whose ack methods take
// ...nats.AckOpt. It also holds the structural rule: handler-side
// interfaces with Ack and Nak or Term are messages.
var NATS = &Profile{
	Name:            "nats",
	Messages:        []TypeName{{"github.com/nats-io/nats.go", "Msg"}},
	AckMethods:      natsAckMethods,
	Payload:         []string{"Data"},
	Structural:      true,
	Packages:        []string{"github.com/nats-io/nats.go"},
	Publish:         natsPublish,
	PublishMsg:      &TypeName{"github.com/nats-io/nats.go", "Msg"},
	PublishMsgNew:   &TypeName{"github.com/nats-io/nats.go", "NewMsg"},
	Store:           natsStore,
	Buffered:        &TypeName{"github.com/nats-io/nats.go", "Conn"},
	BufferedPublish: []string{"Publish", "PublishMsg", "PublishRequest"},
	Async:           natsAsync,
	Await:           natsAwait,
	Redelivery:      natsRedelivery,
}

// JetStream is github.com/nats-io/nats.go/jetstream's Msg interface.
var JetStream = &Profile{
	Name:       "jetstream",
	Messages:   []TypeName{{"github.com/nats-io/nats.go/jetstream", "Msg"}},
	AckMethods: natsAckMethods,
	Payload:    []string{"Data"},
	Packages:   []string{"github.com/nats-io/nats.go/jetstream"},
	Publish:    natsPublish,
	PublishMsg: &TypeName{"github.com/nats-io/nats.go", "Msg"},
	Store:      natsStore,
	Async:      natsAsync,
	Await:      natsAwait,
	Redelivery: jetStreamRedelivery,
}

// Builtin returns the built-in profiles, in the order they are consulted.
func Builtin() []*Profile { return []*Profile{NATS, JetStream} }
