// Package natstest runs an in-process nats-server with JetStream for tests and
// demos of the retrylint runtime.
//
// The server listens on 127.0.0.1 on a random port, keeps JetStream state in a
// file store under a directory of the caller's choice, logs nothing and
// installs no signal handlers. It can be stopped and started again on the same
// port and store, which is how the runtime's tests prove that nothing is lost
// across a server restart.
//
// Start is the entry point for tests; New is the entry point for programs such
// as cmd/retrydemo that have no testing.TB.
package natstest

import (
	"errors"
	"fmt"
	"net"
	"sync"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// ErrNotReady is returned by New and Restart when the server does not accept
// connections within the start timeout.
var ErrNotReady = errors.New("natstest: server not ready for connections")

// startTimeout bounds how long New and Restart wait for the server.
const startTimeout = 10 * time.Second

// TB is the part of testing.TB that Start uses. It keeps this package free of
// an import of "testing", so that programs can use it too.
type TB interface {
	Helper()
	Fatalf(format string, args ...any)
	Cleanup(func())
	TempDir() string
}

// Server is an embedded nats-server with JetStream enabled.
type Server struct {
	mu   sync.Mutex
	opts server.Options
	ns   *server.Server
}

// New starts a server that stores JetStream state under storeDir. The caller
// must call Shutdown.
func New(storeDir string) (*Server, error) {
	s := &Server{opts: server.Options{
		Host:      "127.0.0.1",
		Port:      -1,
		JetStream: true,
		StoreDir:  storeDir,
		NoLog:     true,
		NoSigs:    true,
	}}
	if err := s.start(); err != nil {
		return nil, err
	}
	s.pin()
	return s, nil
}

// Start starts a server whose store lives in tb.TempDir and shuts it down in
// tb.Cleanup. It fails the test if the server does not start.
func Start(tb TB) *Server {
	tb.Helper()
	s, err := New(tb.TempDir())
	if err != nil {
		tb.Fatalf("natstest: %v", err)
	}
	tb.Cleanup(s.Shutdown)
	return s
}

// pin fixes the port the server got, so that a restart comes back where
// clients reconnect.
func (s *Server) pin() { s.opts.Port = s.ns.Addr().(*net.TCPAddr).Port }

func (s *Server) start() error {
	opts := s.opts // the server keeps a pointer; give each run its own copy
	ns, err := server.NewServer(&opts)
	if err != nil {
		return fmt.Errorf("natstest: new server: %w", err)
	}
	go ns.Start()
	if !ns.ReadyForConnections(startTimeout) {
		ns.Shutdown()
		return ErrNotReady
	}
	s.ns = ns
	return nil
}

// URL returns the client URL, stable across restarts.
func (s *Server) URL() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return fmt.Sprintf("nats://%s:%d", s.opts.Host, s.opts.Port)
}

// running returns the running server, or nil while it is shut down.
func (s *Server) running() *server.Server {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ns
}

// StoreDir returns the JetStream store directory.
func (s *Server) StoreDir() string { return s.opts.StoreDir }

// Shutdown stops the server and waits until it is down. It is safe to call
// more than once.
func (s *Server) Shutdown() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ns == nil {
		return
	}
	s.ns.Shutdown()
	s.ns.WaitForShutdown()
	s.ns = nil
}

// Restart stops the server and starts it again on the same port with the same
// store, as an operator restarting a node would.
func (s *Server) Restart() error {
	s.Shutdown()
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.start()
}

// Connect opens a client connection that reconnects forever with a short
// wait, so that it survives Restart.
func (s *Server) Connect(opts ...nats.Option) (*nats.Conn, jetstream.JetStream, error) {
	return connect(s.URL(), opts...)
}

// connect connects to urls (comma-separated) with reconnects forever.
func connect(urls string, opts ...nats.Option) (*nats.Conn, jetstream.JetStream, error) {
	all := append([]nats.Option{
		nats.MaxReconnects(-1),
		nats.ReconnectWait(50 * time.Millisecond),
	}, opts...)
	nc, err := nats.Connect(urls, all...)
	if err != nil {
		return nil, nil, fmt.Errorf("natstest: connect: %w", err)
	}
	js, err := jetstream.New(nc)
	if err != nil {
		nc.Close()
		return nil, nil, fmt.Errorf("natstest: jetstream: %w", err)
	}
	return nc, js, nil
}

// MustConnect is Connect for tests: it fails tb on error and closes the
// connection in tb.Cleanup.
func (s *Server) MustConnect(tb TB, opts ...nats.Option) (*nats.Conn, jetstream.JetStream) {
	tb.Helper()
	return mustConnect(tb, s.URL(), opts)
}

// mustConnect connects to urls, failing tb on error and closing the
// connection in tb.Cleanup.
func mustConnect(tb TB, urls string, opts []nats.Option) (*nats.Conn, jetstream.JetStream) {
	tb.Helper()
	nc, js, err := connect(urls, opts...)
	if err != nil {
		tb.Fatalf("%v", err)
	}
	tb.Cleanup(nc.Close)
	return nc, js
}
