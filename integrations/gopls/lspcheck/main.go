// Command lspcheck drives a gopls binary over stdio, as an editor does, and
// checks that it publishes retrylint diagnostics and offers their quick fixes.
//
//	go run . -gopls /path/to/gopls-retrylint -root /path/to/retrylint \
//	    -file examples/orders/handlers/orders.go \
//	    -expect 'retryflatten:37:return fmt.Errorf("reserve order %s: %w", o.ID, err)'
//
// Each -expect is analyzer:line:text. lspcheck opens the file, waits for a
// textDocument/publishDiagnostics carrying a diagnostic of that analyzer
// (its source) on that line (1-based), asks textDocument/codeAction for
// the quick fixes at its range, applies the fix's edit to the file's text
// in memory and compares the line, trimmed, with text. Each -diagnostic
// is analyzer:line:substring, a diagnostic whose message contains
// substring, without a quick fix to check. Then textDocument/documentSymbol
// must list the file's symbols: the rest of Go editing works. It exits 1
// with a message saying what was missing, after -timeout at the latest.
//
// gopls starts in -cwd (default: -root), so a check can tell the
// workspace folder's configuration from the one of the directory the
// editor started gopls in.
//
// The analyses named by -analyses are enabled through initializationOptions.
// Requests from the server to the client are answered with null.
//
// It uses the standard library only: the LSP framing (Content-Length
// headers around JSON-RPC 2.0) is a few lines, and it lives in its own
// module so that the linter's module does not depend on it.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf16"
)

type expectation struct {
	analyzer string
	line     int    // 1-based
	fixed    string // the line after the quick fix; "" for none to check
	contains string // a substring of the message; "" for any
}

type expectations []expectation

func (e *expectations) String() string { return fmt.Sprint(*e) }

func (e *expectations) Set(s string) error {
	analyzer, rest, ok1 := strings.Cut(s, ":")
	lineText, fixed, ok2 := strings.Cut(rest, ":")
	line, err := strconv.Atoi(lineText)
	if !ok1 || !ok2 || err != nil || line < 1 || analyzer == "" || fixed == "" {
		return fmt.Errorf("want analyzer:line:fixed-line-text, got %q", s)
	}
	*e = append(*e, expectation{analyzer: analyzer, line: line, fixed: strings.TrimSpace(fixed)})
	return nil
}

// diagnostics is the -diagnostic flag: expectations without a quick fix.
type diagnostics struct{ e *expectations }

func (d diagnostics) String() string { return "" }

func (d diagnostics) Set(s string) error {
	analyzer, rest, ok1 := strings.Cut(s, ":")
	lineText, contains, ok2 := strings.Cut(rest, ":")
	line, err := strconv.Atoi(lineText)
	if !ok1 || !ok2 || err != nil || line < 1 || analyzer == "" {
		return fmt.Errorf("want analyzer:line:message-substring, got %q", s)
	}
	*d.e = append(*d.e, expectation{analyzer: analyzer, line: line, contains: contains})
	return nil
}

func main() {
	gopls := flag.String("gopls", "", "gopls binary to drive (required)")
	root := flag.String("root", ".", "workspace root (a module directory)")
	cwd := flag.String("cwd", "", "directory gopls starts in (default: -root)")
	file := flag.String("file", "", "file to open, relative to -root (required)")
	analyses := flag.String("analyses", "retryflatten,termbeforedlq,barenak,ackretryable,dlqunchecked,poisonack,settletwice,ackpermanent",
		"comma-separated analyses for initializationOptions: name enables one, name=false disables it")
	timeout := flag.Duration("timeout", 60*time.Second, "give up after this long")
	var want expectations
	flag.Var(&want, "expect", "analyzer:line:fixed-line-text (repeatable)")
	flag.Var(diagnostics{&want}, "diagnostic", "analyzer:line:message-substring, a diagnostic without a quick fix to check (repeatable)")
	var absent names
	flag.Var(&absent, "absent", "analyzer that must publish no diagnostic for the file (repeatable)")
	flag.Parse()
	if *gopls == "" || *file == "" || len(want) == 0 {
		flag.Usage()
		os.Exit(2)
	}
	if *cwd == "" {
		*cwd = *root
	}
	if err := run(*gopls, *root, *cwd, *file, *analyses, *timeout, want, absent); err != nil {
		fmt.Fprintln(os.Stderr, "lspcheck: FAIL:", err)
		os.Exit(1)
	}
}

func run(gopls, root, cwd, file, analyses string, timeout time.Duration, want expectations, absent names) error {
	root, err := filepath.Abs(root)
	if err != nil {
		return err
	}
	path := filepath.Join(root, file)
	text, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	uri := fileURI(path)

	c, err := start(gopls, cwd)
	if err != nil {
		return err
	}
	defer c.close()
	deadline := time.Now().Add(timeout)
	began := time.Now()

	enabled := map[string]bool{}
	for name := range strings.SplitSeq(analyses, ",") {
		name, value, hasValue := strings.Cut(strings.TrimSpace(name), "=")
		if name != "" {
			enabled[name] = !hasValue || value == "true"
		}
	}
	params := map[string]any{
		"processId": os.Getpid(),
		"rootUri":   fileURI(root),
		"workspaceFolders": []any{
			map[string]any{"uri": fileURI(root), "name": filepath.Base(root)},
		},
		"capabilities": map[string]any{
			"workspace": map[string]any{
				"workspaceEdit": map[string]any{"documentChanges": true},
			},
			"textDocument": map[string]any{
				"publishDiagnostics": map[string]any{"relatedInformation": true},
				"codeAction": map[string]any{
					"dataSupport":    true,
					"resolveSupport": map[string]any{"properties": []string{"edit"}},
					"codeActionLiteralSupport": map[string]any{
						"codeActionKind": map[string]any{"valueSet": []string{"quickfix", "refactor", "source"}},
					},
				},
			},
		},
		"initializationOptions": map[string]any{"analyses": enabled},
	}
	if _, err := c.call("initialize", params, deadline); err != nil {
		return fmt.Errorf("initialize: %w", err)
	}
	if err := c.notify("initialized", map[string]any{}); err != nil {
		return err
	}
	if err := c.notify("textDocument/didOpen", map[string]any{
		"textDocument": map[string]any{"uri": uri, "languageId": "go", "version": 1, "text": string(text)},
	}); err != nil {
		return err
	}

	found, latest, err := c.awaitDiagnostics(uri, want, deadline)
	if err != nil {
		return err
	}
	fmt.Printf("lspcheck: diagnostics for %s after %.1fs\n", file, time.Since(began).Seconds())
	// The analyzers' diagnostics for a file come in one publication: the
	// one holding the wanted ones tells what else was reported.
	for _, d := range latest {
		if slices.Contains(absent, d.Source) {
			return fmt.Errorf("%s published a diagnostic, want none: %s:%d: %s", d.Source, file, d.Range.Start.Line+1, d.Message)
		}
	}
	for _, a := range absent {
		fmt.Printf("  no %s diagnostic, as wanted\n", a)
	}

	for i, w := range want {
		d := found[i]
		fmt.Printf("  %s:%d:%d: %s: %s\n", file, w.line, d.Range.Start.Character+1, d.Source, d.Message)
		if w.fixed == "" {
			continue
		}
		title, edits, err := c.quickFix(uri, d, deadline)
		if err != nil {
			return fmt.Errorf("%s at line %d: %w", w.analyzer, w.line, err)
		}
		fixed, err := applyEdits(string(text), edits)
		if err != nil {
			return fmt.Errorf("%s at line %d: quick fix %q: %w", w.analyzer, w.line, title, err)
		}
		lines := strings.Split(fixed, "\n")
		got := ""
		if w.line <= len(lines) {
			got = strings.TrimSpace(lines[w.line-1])
		}
		if got != w.fixed {
			return fmt.Errorf("%s at line %d: quick fix %q makes the line\n\t%s\nwant\n\t%s", w.analyzer, w.line, title, got, w.fixed)
		}
		fmt.Printf("    quick fix %q: %s\n", title, got)
	}

	n, err := c.symbols(uri, deadline)
	if err != nil {
		return err
	}
	fmt.Printf("  textDocument/documentSymbol: %d symbols\n", n)

	// A polite shutdown; gopls's exit status does not matter to the check.
	if _, err := c.call("shutdown", nil, time.Now().Add(10*time.Second)); err == nil {
		_ = c.notify("exit", nil)
	}
	return nil
}

// names is a repeatable flag of analyzer names.
type names []string

func (n *names) String() string     { return strings.Join(*n, ",") }
func (n *names) Set(v string) error { *n = append(*n, v); return nil }

func fileURI(path string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String()
}

// sameURI compares two file URIs by path, whatever their escaping.
func sameURI(a, b string) bool {
	ua, err1 := url.Parse(a)
	ub, err2 := url.Parse(b)
	return err1 == nil && err2 == nil && ua.Scheme == ub.Scheme && filepath.Clean(ua.Path) == filepath.Clean(ub.Path)
}

// LSP types, as far as the check reads them.

type position struct {
	Line      int `json:"line"`
	Character int `json:"character"` // UTF-16 code units
}

type lspRange struct {
	Start position `json:"start"`
	End   position `json:"end"`
}

type diagnostic struct {
	Range    lspRange        `json:"range"`
	Severity int             `json:"severity,omitempty"`
	Code     any             `json:"code,omitempty"`
	Source   string          `json:"source,omitempty"`
	Message  string          `json:"message"`
	Related  json.RawMessage `json:"relatedInformation,omitempty"`
	Data     json.RawMessage `json:"data,omitempty"`
}

type textEdit struct {
	Range   lspRange `json:"range"`
	NewText string   `json:"newText"`
}

type workspaceEdit struct {
	Changes         map[string][]textEdit `json:"changes"`
	DocumentChanges []struct {
		TextDocument struct {
			URI string `json:"uri"`
		} `json:"textDocument"`
		Edits []textEdit `json:"edits"`
		Kind  string     `json:"kind"` // create, rename, delete: not a text edit
	} `json:"documentChanges"`
}

type codeAction struct {
	Title       string          `json:"title"`
	Kind        string          `json:"kind"`
	Diagnostics []diagnostic    `json:"diagnostics"`
	Edit        *workspaceEdit  `json:"edit"`
	Command     json.RawMessage `json:"command"`
	Data        json.RawMessage `json:"data"`
}

// message is any JSON-RPC 2.0 message: a request, a response or a notification.
type message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error,omitempty"`
}

// client is one gopls process and the state read from it.
type client struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stderr *bytes.Buffer

	writeMu sync.Mutex
	mu      sync.Mutex
	nextID  int
	pending map[string]chan message
	diags   map[string][]diagnostic // latest publishDiagnostics by URI
	changed chan struct{}           // signalled on every publishDiagnostics
	done    chan struct{}           // closed when the server's stdout ends
	readErr error
}

func start(gopls, root string) (*client, error) {
	cmd := exec.Command(gopls)
	cmd.Dir = root
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	c := &client{
		cmd: cmd, stdin: stdin, stderr: new(bytes.Buffer),
		pending: map[string]chan message{},
		diags:   map[string][]diagnostic{},
		changed: make(chan struct{}, 1),
		done:    make(chan struct{}),
	}
	cmd.Stderr = &lockedWriter{w: c.stderr, mu: &c.mu}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start gopls: %w", err)
	}
	go c.read(bufio.NewReader(stdout))
	return c, nil
}

type lockedWriter struct {
	w  io.Writer
	mu *sync.Mutex
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (c *client) close() {
	_ = c.stdin.Close()
	exited := make(chan struct{})
	go func() { _ = c.cmd.Wait(); close(exited) }()
	select {
	case <-exited:
	case <-time.After(5 * time.Second):
		_ = c.cmd.Process.Kill()
		<-exited
	}
}

// serverLog is what gopls wrote to its stderr, for failure messages.
func (c *client) serverLog() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stderr.Len() == 0 {
		return ""
	}
	return "\ngopls stderr:\n" + c.stderr.String()
}

func (c *client) write(m any) error {
	body, err := json.Marshal(m)
	if err != nil {
		return err
	}
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	if _, err := fmt.Fprintf(c.stdin, "Content-Length: %d\r\n\r\n", len(body)); err != nil {
		return err
	}
	_, err = c.stdin.Write(body)
	return err
}

func (c *client) notify(method string, params any) error {
	return c.write(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
}

func (c *client) call(method string, params any, deadline time.Time) (json.RawMessage, error) {
	c.mu.Lock()
	c.nextID++
	id := c.nextID
	ch := make(chan message, 1)
	c.pending[strconv.Itoa(id)] = ch
	c.mu.Unlock()
	if err := c.write(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params}); err != nil {
		return nil, err
	}
	select {
	case m := <-ch:
		if m.Error != nil {
			return nil, fmt.Errorf("%s: error %d: %s", method, m.Error.Code, m.Error.Message)
		}
		return m.Result, nil
	case <-c.done:
		return nil, fmt.Errorf("%s: gopls closed its output (%v)%s", method, c.readErr, c.serverLog())
	case <-time.After(time.Until(deadline)):
		return nil, fmt.Errorf("%s: no response before the timeout%s", method, c.serverLog())
	}
}

// read decodes the server's messages until its stdout ends.
func (c *client) read(r *bufio.Reader) {
	defer close(c.done)
	for {
		body, err := readFrame(r)
		if err != nil {
			c.readErr = err
			return
		}
		var m message
		if err := json.Unmarshal(body, &m); err != nil {
			c.readErr = fmt.Errorf("bad message %q: %w", body, err)
			return
		}
		switch {
		case m.Method != "" && len(m.ID) > 0: // a request from the server
			_ = c.write(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": nil})
		case m.Method == "textDocument/publishDiagnostics":
			var p struct {
				URI         string       `json:"uri"`
				Diagnostics []diagnostic `json:"diagnostics"`
			}
			if json.Unmarshal(m.Params, &p) == nil {
				c.mu.Lock()
				c.diags[p.URI] = p.Diagnostics
				c.mu.Unlock()
				select {
				case c.changed <- struct{}{}:
				default:
				}
			}
		case m.Method != "": // another notification (logs, progress)
		default: // a response
			id := strings.Trim(string(m.ID), `"`)
			c.mu.Lock()
			ch := c.pending[id]
			delete(c.pending, id)
			c.mu.Unlock()
			if ch != nil {
				ch <- m
			}
		}
	}
}

// readFrame reads one Content-Length framed message body.
func readFrame(r *bufio.Reader) ([]byte, error) {
	length := -1
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return nil, err
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			break
		}
		name, value, ok := strings.Cut(line, ":")
		if ok && strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			if length, err = strconv.Atoi(strings.TrimSpace(value)); err != nil {
				return nil, fmt.Errorf("bad header %q", line)
			}
		}
	}
	if length < 0 {
		return nil, errors.New("message without Content-Length")
	}
	body := make([]byte, length)
	_, err := io.ReadFull(r, body)
	return body, err
}

// awaitDiagnostics waits until the diagnostics published for uri hold one
// per expectation, and returns them in the expectations' order.
func (c *client) awaitDiagnostics(uri string, want expectations, deadline time.Time) (found, latest []diagnostic, err error) {
	for {
		c.mu.Lock()
		latest = nil
		published := false
		for u, ds := range c.diags {
			if sameURI(u, uri) {
				latest, published = ds, true
			}
		}
		c.mu.Unlock()
		found = make([]diagnostic, len(want))
		missing := 0
		for i, w := range want {
			ok := false
			for _, d := range latest {
				if d.Source == w.analyzer && d.Range.Start.Line == w.line-1 && strings.Contains(d.Message, w.contains) {
					found[i], ok = d, true
					break
				}
			}
			if !ok {
				missing++
			}
		}
		if missing == 0 {
			return found, latest, nil
		}
		select {
		case <-c.changed:
		case <-c.done:
			return nil, nil, fmt.Errorf("gopls closed its output (%v) before publishing the diagnostics%s", c.readErr, c.serverLog())
		case <-time.After(time.Until(deadline)):
			var b strings.Builder
			for _, w := range want {
				fmt.Fprintf(&b, "\n\twant a %s diagnostic on line %d", w.analyzer, w.line)
			}
			if !published {
				b.WriteString("\n\tgot no textDocument/publishDiagnostics for the file")
			}
			for _, d := range latest {
				fmt.Fprintf(&b, "\n\tgot line %d: %s: %s", d.Range.Start.Line+1, d.Source, d.Message)
			}
			return nil, nil, fmt.Errorf("timed out waiting for diagnostics:%s%s", b.String(), c.serverLog())
		}
	}
}

// symbols asks for the file's symbols and returns how many top-level ones
// there are: none is an error (the file declares some).
func (c *client) symbols(uri string, deadline time.Time) (int, error) {
	raw, err := c.call("textDocument/documentSymbol", map[string]any{
		"textDocument": map[string]any{"uri": uri},
	}, deadline)
	if err != nil {
		return 0, err
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return 0, fmt.Errorf("documentSymbol result %s: %w", raw, err)
	}
	if len(items) == 0 {
		return 0, fmt.Errorf("textDocument/documentSymbol lists no symbol for the file: Go editing is not working%s", c.serverLog())
	}
	return len(items), nil
}

// quickFix asks for the code actions at d and returns the title and text
// edits (for d's file) of the quick fix that resolves d.
func (c *client) quickFix(uri string, d diagnostic, deadline time.Time) (string, []textEdit, error) {
	raw, err := c.call("textDocument/codeAction", map[string]any{
		"textDocument": map[string]any{"uri": uri},
		"range":        d.Range,
		"context":      map[string]any{"diagnostics": []diagnostic{d}, "only": []string{"quickfix"}},
	}, deadline)
	if err != nil {
		return "", nil, err
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return "", nil, fmt.Errorf("codeAction result %s: %w", raw, err)
	}
	var titles []string
	for _, item := range items {
		var a codeAction
		if json.Unmarshal(item, &a) != nil || a.Kind != "quickfix" {
			continue // a bare Command or another kind
		}
		titles = append(titles, a.Title)
		if !fixes(a, d) {
			continue
		}
		if a.Edit == nil && len(a.Data) > 0 {
			resolved, err := c.call("codeAction/resolve", json.RawMessage(item), deadline)
			if err != nil {
				return "", nil, err
			}
			if err := json.Unmarshal(resolved, &a); err != nil {
				return "", nil, fmt.Errorf("codeAction/resolve result %s: %w", resolved, err)
			}
		}
		if a.Edit == nil {
			return "", nil, fmt.Errorf("quick fix %q carries no edit (command %s)", a.Title, a.Command)
		}
		var edits []textEdit
		for u, es := range a.Edit.Changes {
			if sameURI(u, uri) {
				edits = append(edits, es...)
			}
		}
		for _, dc := range a.Edit.DocumentChanges {
			if dc.Kind == "" && sameURI(dc.TextDocument.URI, uri) {
				edits = append(edits, dc.Edits...)
			}
		}
		if len(edits) == 0 {
			return "", nil, fmt.Errorf("quick fix %q edits nothing in the file", a.Title)
		}
		return a.Title, edits, nil
	}
	return "", nil, fmt.Errorf("no quick fix for the diagnostic among %d code actions (quick fixes: %q)", len(items), titles)
}

// fixes reports whether a code action names d among the diagnostics it resolves.
func fixes(a codeAction, d diagnostic) bool {
	for _, ad := range a.Diagnostics {
		if ad.Source == d.Source && ad.Range == d.Range && ad.Message == d.Message {
			return true
		}
	}
	return false
}

// applyEdits applies non-overlapping LSP text edits to text.
func applyEdits(text string, edits []textEdit) (string, error) {
	type span struct {
		start, end int
		newText    string
	}
	spans := make([]span, 0, len(edits))
	for _, e := range edits {
		start, err := offset(text, e.Range.Start)
		if err != nil {
			return "", err
		}
		end, err := offset(text, e.Range.End)
		if err != nil {
			return "", err
		}
		if end < start {
			return "", fmt.Errorf("edit range %v ends before it starts", e.Range)
		}
		spans = append(spans, span{start, end, e.NewText})
	}
	// Apply from the end, so earlier offsets stay valid.
	for i := 1; i < len(spans); i++ {
		for j := i; j > 0 && spans[j].start > spans[j-1].start; j-- {
			spans[j], spans[j-1] = spans[j-1], spans[j]
		}
	}
	for i, s := range spans {
		if i > 0 && s.end > spans[i-1].start {
			return "", errors.New("overlapping edits")
		}
		text = text[:s.start] + s.newText + text[s.end:]
	}
	return text, nil
}

// offset converts an LSP position (line, UTF-16 column) into a byte offset.
func offset(text string, p position) (int, error) {
	off := 0
	for line := 0; line < p.Line; line++ {
		i := strings.IndexByte(text[off:], '\n')
		if i < 0 {
			return 0, fmt.Errorf("position %d:%d is past the end of the file", p.Line+1, p.Character+1)
		}
		off += i + 1
	}
	units := 0
	for i, r := range text[off:] {
		if units >= p.Character || r == '\n' {
			return off + i, nil
		}
		units += len(utf16.Encode([]rune{r}))
	}
	return len(text), nil
}
