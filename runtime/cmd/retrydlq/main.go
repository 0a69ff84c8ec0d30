// Command retrydlq looks into and acts on the dead-letter queue the runtime
// writes (package dlq): it lists entries with their evidence, shows one,
// replays chosen entries to the consumer that failed them, and purges.
//
//	retrydlq list    [flags]        entries, as a table or -json
//	retrydlq show    [flags] SEQ    one entry: evidence, headers, payload
//	retrydlq replay  [flags]        republish the chosen entries (-delete: and remove them)
//	retrydlq purge   [flags] -yes   delete the chosen entries
//
// Connection flags: -server (default $NATS_URL or nats://127.0.0.1:4222),
// -creds, -tls-ca, -tls-cert, -tls-key; -stream names the DLQ stream
// (default DLQ). Entries are chosen by -seq 1,2,3, -subject (a NATS
// subject pattern, * and > wildcards), -class, -consumer, -since and -until
// (RFC 3339 times, or durations back from now: -since 2h). Replay and
// purge without any of those act on every entry. Replay prints its
// progress on stderr; it goes to the consumer that failed each entry, or
// to -to-consumer NAME, and refuses, replaying nothing, when that consumer
// does not exist or does not take an entry's subject (the other
// consumers' runners would ack the copy away).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/retrylint/retrylint/runtime/dlq"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

const usage = `usage: retrydlq list|show|replay|purge [flags]

  list    [flags]        entries, as a table or -json
  show    [flags] SEQ    one entry: evidence, headers, payload
  replay  [flags]        republish the chosen entries to the consumers that failed them (-to-consumer: to another)
  purge   [flags] -yes   delete the chosen entries

Run 'retrydlq COMMAND -h' for its flags.
`

// run carries out one command and returns the exit status: 0, 1 when the
// command failed, 2 for bad usage.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	cmd, args := args[0], args[1:]
	c := &command{name: cmd, stdout: stdout, stderr: stderr}
	fs := flag.NewFlagSet("retrydlq "+cmd, flag.ContinueOnError)
	fs.SetOutput(stderr)
	c.connFlags(fs)
	switch cmd {
	case "list":
		c.filterFlags(fs)
		fs.BoolVar(&c.json, "json", false, "print the entries as a JSON array")
	case "show":
		fs.BoolVar(&c.json, "json", false, "print the entry as JSON")
	case "replay":
		c.filterFlags(fs)
		fs.BoolVar(&c.delete, "delete", false, "delete each entry once its republish is confirmed")
		fs.BoolVar(&c.dryRun, "dry-run", false, "list what would be replayed, and replay nothing")
		fs.StringVar(&c.toConsumer, "to-consumer", "", "replay to this consumer instead of the one that failed each entry (it must exist and take the subject)")
	case "purge":
		c.filterFlags(fs)
		fs.BoolVar(&c.yes, "yes", false, "confirm: delete the chosen entries")
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	default:
		fmt.Fprintf(stderr, "retrydlq: unknown command %q\n%s", cmd, usage)
		return 2
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if err := c.check(fs.Args()); err != nil {
		fmt.Fprintf(stderr, "retrydlq %s: %v\n", cmd, err)
		return 2
	}
	if err := c.run(ctx); err != nil {
		fmt.Fprintf(stderr, "retrydlq %s: %v\n", cmd, err)
		return 1
	}
	return 0
}

// command is one invocation: its flags and what they chose.
type command struct {
	name           string
	stdout, stderr io.Writer

	server, creds, tlsCA, tlsCert, tlsKey, stream string
	json, delete, dryRun, yes                     bool
	seqText, subject, class, consumer, toConsumer string
	sinceText, untilText                          string

	seqs         map[uint64]bool
	since, until time.Time
	show         uint64
}

func (c *command) connFlags(fs *flag.FlagSet) {
	url := os.Getenv("NATS_URL")
	if url == "" {
		url = nats.DefaultURL
	}
	fs.StringVar(&c.server, "server", url, "NATS server URL(s), comma-separated")
	fs.StringVar(&c.creds, "creds", "", "NATS credentials file")
	fs.StringVar(&c.tlsCA, "tls-ca", "", "CA certificate file for TLS")
	fs.StringVar(&c.tlsCert, "tls-cert", "", "client certificate file for TLS (with -tls-key)")
	fs.StringVar(&c.tlsKey, "tls-key", "", "client key file for TLS (with -tls-cert)")
	fs.StringVar(&c.stream, "stream", dlq.DefaultStream, "the DLQ stream")
}

func (c *command) filterFlags(fs *flag.FlagSet) {
	fs.StringVar(&c.seqText, "seq", "", "comma-separated DLQ sequences")
	fs.StringVar(&c.subject, "subject", "", "original subject, a NATS pattern (* and > wildcards)")
	fs.StringVar(&c.class, "class", "", "classification, such as permanent or undecodable")
	fs.StringVar(&c.consumer, "consumer", "", "the consumer that failed the message")
	fs.StringVar(&c.sinceText, "since", "", "written at or after: an RFC 3339 time, or a duration back from now (2h)")
	fs.StringVar(&c.untilText, "until", "", "written before: an RFC 3339 time, or a duration back from now")
}

// check validates the flags and the arguments left after them.
func (c *command) check(rest []string) error {
	if c.name == "show" {
		if len(rest) != 1 {
			return errors.New("want one DLQ sequence")
		}
		seq, err := strconv.ParseUint(rest[0], 10, 64)
		if err != nil || seq == 0 {
			return fmt.Errorf("bad DLQ sequence %q", rest[0])
		}
		c.show = seq
		return nil
	}
	if len(rest) > 0 {
		return fmt.Errorf("unexpected arguments %q", rest)
	}
	if (c.tlsCert == "") != (c.tlsKey == "") {
		return errors.New("-tls-cert and -tls-key go together")
	}
	if c.seqText != "" {
		c.seqs = make(map[uint64]bool)
		for _, f := range strings.Split(c.seqText, ",") {
			seq, err := strconv.ParseUint(strings.TrimSpace(f), 10, 64)
			if err != nil || seq == 0 {
				return fmt.Errorf("-seq: bad sequence %q", f)
			}
			c.seqs[seq] = true
		}
	}
	var err error
	if c.since, err = when(c.sinceText, time.Now()); err != nil {
		return fmt.Errorf("-since: %v", err)
	}
	if c.until, err = when(c.untilText, time.Now()); err != nil {
		return fmt.Errorf("-until: %v", err)
	}
	if c.toConsumer != "" && strings.ContainsAny(c.toConsumer, ".*> \t\r\n") {
		return fmt.Errorf("-to-consumer: bad consumer name %q", c.toConsumer)
	}
	if c.name == "purge" && !c.yes {
		return errors.New("purge deletes entries for good: confirm with -yes")
	}
	return nil
}

// when parses an RFC 3339 time or a duration back from now; "" is the
// zero time.
func when(s string, now time.Time) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	if d, err := time.ParseDuration(s); err == nil {
		return now.Add(-d), nil
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("want an RFC 3339 time or a duration, got %q", s)
	}
	return t, nil
}

// chosen reports whether the filters choose e.
func (c *command) chosen(e *dlq.Entry) bool {
	return (c.seqs == nil || c.seqs[e.Seq]) &&
		(c.subject == "" || dlq.MatchSubject(c.subject, e.Subject)) &&
		(c.class == "" || e.Class == c.class) &&
		(c.consumer == "" || e.Consumer == c.consumer) &&
		(c.since.IsZero() || !e.Written.Before(c.since)) &&
		(c.until.IsZero() || e.Written.Before(c.until))
}

func (c *command) connect() (*nats.Conn, error) {
	opts := []nats.Option{nats.Name("retrydlq")}
	if c.creds != "" {
		opts = append(opts, nats.UserCredentials(c.creds))
	}
	if c.tlsCA != "" {
		opts = append(opts, nats.RootCAs(c.tlsCA))
	}
	if c.tlsCert != "" {
		opts = append(opts, nats.ClientCert(c.tlsCert, c.tlsKey))
	}
	return nats.Connect(c.server, opts...)
}

func (c *command) run(ctx context.Context) error {
	nc, err := c.connect()
	if err != nil {
		return err
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		return err
	}
	store, err := dlq.New(ctx, js, dlq.WithStream(c.stream), dlq.WithoutCreate())
	if err != nil {
		return err
	}
	switch c.name {
	case "list":
		return c.list(ctx, store)
	case "show":
		e, err := store.Get(ctx, c.show)
		if err != nil {
			return err
		}
		if c.json {
			return c.printJSON(entryJSON(e, true))
		}
		printEntry(c.stdout, e)
		return nil
	case "replay":
		return c.replay(ctx, store)
	case "purge":
		return c.purge(ctx, store)
	}
	return nil
}

func (c *command) list(ctx context.Context, store *dlq.Store) error {
	var chosen []*dlq.Entry
	for e, err := range store.Entries(ctx) {
		if errors.Is(err, dlq.ErrNotEntry) {
			c.notEntry(err)
			continue
		}
		if err != nil {
			return err
		}
		if c.chosen(e) {
			chosen = append(chosen, e)
		}
	}
	if c.json {
		out := make([]map[string]any, 0, len(chosen))
		for _, e := range chosen {
			out = append(out, entryJSON(e, false))
		}
		return c.printJSON(out)
	}
	tw := tabwriter.NewWriter(c.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SEQ\tWRITTEN\tSUBJECT\tCONSUMER\tCLASS\tDELIVERIES\tERROR")
	for _, e := range chosen {
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%d\t%s\n", e.Seq, e.Written.UTC().Format(time.RFC3339), e.Subject,
			e.Consumer, e.Class, e.Deliveries, firstLine(e.Error, 60))
	}
	return tw.Flush()
}

func (c *command) replay(ctx context.Context, store *dlq.Store) error {
	var total int
	for e, err := range store.Entries(ctx) {
		if errors.Is(err, dlq.ErrNotEntry) {
			c.notEntry(err)
			continue
		}
		if err != nil {
			return err
		}
		if c.chosen(e) {
			total++
			if c.dryRun {
				to := e.Consumer
				if c.toConsumer != "" {
					to = c.toConsumer
				}
				fmt.Fprintf(c.stdout, "would replay %d to %s (consumer %s)\n", e.Seq, e.Subject, to)
			}
		}
	}
	if c.dryRun || total == 0 {
		if total == 0 {
			fmt.Fprintln(c.stderr, "retrydlq replay: no entry chosen")
		}
		return nil
	}
	opts := []dlq.ReplayOption{
		dlq.ReplayFilter(c.chosen),
		dlq.ReplayProgress(func(done int, r dlq.Replayed) {
			if done%100 == 0 || done == total {
				fmt.Fprintf(c.stderr, "replayed %d of %d\n", done, total)
			}
		}),
	}
	if c.delete {
		opts = append(opts, dlq.ReplayDelete())
	}
	if c.toConsumer != "" {
		opts = append(opts, dlq.ReplayTo(c.toConsumer))
	}
	done, err := store.Replay(ctx, opts...)
	for _, r := range done {
		note := ""
		if r.Ack != nil && r.Ack.Duplicate {
			note = " (duplicate: replayed before)"
		}
		fmt.Fprintf(c.stdout, "replayed %d to %s as %s seq %d%s\n", r.Entry.Seq, r.Entry.Subject, r.Ack.Stream, r.Ack.Sequence, note)
	}
	return err
}

func (c *command) purge(ctx context.Context, store *dlq.Store) error {
	var seqs []uint64
	for e, err := range store.Entries(ctx) {
		if errors.Is(err, dlq.ErrNotEntry) {
			c.notEntry(err)
			continue
		}
		if err != nil {
			return err
		}
		if c.chosen(e) {
			seqs = append(seqs, e.Seq)
		}
	}
	for _, seq := range seqs {
		if err := store.Delete(ctx, seq); err != nil {
			return err
		}
	}
	fmt.Fprintf(c.stdout, "purged %d entries\n", len(seqs))
	return nil
}

// notEntry notes, on stderr, a message of the DLQ stream that is not an
// entry: it is left alone, and the entries after it are still read.
func (c *command) notEntry(err error) {
	fmt.Fprintf(c.stderr, "retrydlq %s: skipped a message that is not a DLQ entry: %v\n", c.name, err)
}

func (c *command) printJSON(v any) error {
	enc := json.NewEncoder(c.stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// entryJSON is an entry's evidence for -json, with its payload when full.
func entryJSON(e *dlq.Entry, full bool) map[string]any {
	m := map[string]any{
		"seq": e.Seq, "written": e.Written.UTC(), "subject": e.Subject, "stream": e.Stream, "consumer": e.Consumer,
		"stream_seq": e.StreamSeq, "deliveries": e.Deliveries, "class": e.Class, "error": e.Error,
		"error_types": e.ErrorTypes, "handler": e.Handler, "first_failure": e.FirstFailure.UTC(),
		"last_failure": e.LastFailure.UTC(), "truncated": e.Truncated(), "reduced": e.Reduced,
		"attempts": e.Attempts,
	}
	if e.Budget != "" {
		m["budget"] = e.Budget
	}
	if !e.BudgetEnd.IsZero() {
		m["budget_end"] = e.BudgetEnd.UTC()
	}
	if e.RetryDelay > 0 {
		m["retry_delay"] = e.RetryDelay.String()
	}
	if full {
		m["headers"] = e.Header
		m["data"] = string(e.Data)
	}
	return m
}

func printEntry(w io.Writer, e *dlq.Entry) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, kv := range [][2]string{
		{"seq", strconv.FormatUint(e.Seq, 10)},
		{"written", e.Written.UTC().Format(time.RFC3339Nano)},
		{"subject", e.Subject},
		{"origin", fmt.Sprintf("%s seq %d, consumer %s", e.Stream, e.StreamSeq, e.Consumer)},
		{"class", e.Class},
		{"deliveries", strconv.FormatUint(e.Deliveries, 10)},
		{"attempts", strconv.FormatUint(e.Attempts, 10)},
		{"budget", budgetText(e)},
		{"handler", e.Handler},
		{"failures", fmt.Sprintf("%s to %s", e.FirstFailure.UTC().Format(time.RFC3339), e.LastFailure.UTC().Format(time.RFC3339))},
		{"error types", strings.Join(e.ErrorTypes, ", ")},
	} {
		fmt.Fprintf(tw, "%s:\t%s\n", kv[0], kv[1])
	}
	tw.Flush()
	fmt.Fprintf(w, "error:\n%s\n", e.Error)
	for _, k := range slices.Sorted(maps.Keys(e.Header)) {
		for _, v := range e.Header[k] {
			fmt.Fprintf(w, "header %s: %s\n", k, v)
		}
	}
	switch {
	case e.Reduced:
		fmt.Fprintln(w, "payload: not kept (reduced entry)")
	case e.Truncated():
		fmt.Fprintf(w, "payload (truncated, %d of %d bytes):\n%s\n", len(e.Data), e.OriginalSize, e.Data)
	default:
		fmt.Fprintf(w, "payload:\n%s\n", e.Data)
	}
}

// budgetText says which retry budget ran out, and when it ended.
func budgetText(e *dlq.Entry) string {
	switch {
	case e.Budget == "":
		return "-"
	case e.BudgetEnd.IsZero():
		return e.Budget
	}
	return e.Budget + " (ended " + e.BudgetEnd.UTC().Format(time.RFC3339Nano) + ")"
}

// firstLine returns s's first line, at most n runes.
func firstLine(s string, n int) string {
	s, _, _ = strings.Cut(s, "\n")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
