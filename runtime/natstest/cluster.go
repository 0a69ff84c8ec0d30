package natstest

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"path/filepath"
	"strings"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// ErrNoLeader is returned when a cluster elects no leader in time.
var ErrNoLeader = errors.New("natstest: no leader elected")

// Cluster is an embedded JetStream cluster on loopback: nodes that route to
// each other, each with its own store under one directory. A node can be
// stopped and restarted on the same ports and store, as an operator would
// restart a machine.
type Cluster struct {
	nodes []*Server
}

// NewCluster starts n nodes (at least 3 for a quorum that survives a lost
// node) storing under dir, and waits for a JetStream meta leader. The
// caller must call Shutdown.
func NewCluster(dir string, n int) (*Cluster, error) {
	ports, err := freePorts(2 * n) // a client and a route port per node
	if err != nil {
		return nil, err
	}
	var routes []*url.URL
	for i := range n {
		routes = append(routes, &url.URL{Scheme: "nats-route", Host: fmt.Sprintf("127.0.0.1:%d", ports[n+i])})
	}
	c := &Cluster{}
	for i := range n {
		s := &Server{opts: server.Options{
			ServerName: fmt.Sprintf("n%d", i+1),
			Host:       "127.0.0.1",
			Port:       ports[i],
			JetStream:  true,
			StoreDir:   filepath.Join(dir, fmt.Sprintf("n%d", i+1)),
			NoLog:      true,
			NoSigs:     true,
			Cluster:    server.ClusterOpts{Name: "natstest", Host: "127.0.0.1", Port: ports[n+i]},
			Routes:     routes,
		}}
		if err := s.start(); err != nil {
			c.Shutdown()
			return nil, fmt.Errorf("node %d: %w", i+1, err)
		}
		c.nodes = append(c.nodes, s)
	}
	// Ready means a meta leader that sees every node online with its
	// stats: before that, placing an R3 stream can fail with "no suitable
	// peers for placement".
	if err := c.waitFor(func() bool {
		for _, s := range c.nodes {
			if ns := s.running(); ns != nil && ns.JetStreamIsLeader() {
				return len(ns.JetStreamClusterPeers()) == n
			}
		}
		return false
	}); err != nil {
		c.Shutdown()
		return nil, err
	}
	return c, nil
}

// StartCluster starts an n-node cluster under tb.TempDir and shuts it down
// in tb.Cleanup. It fails the test if the cluster does not form.
func StartCluster(tb TB, n int) *Cluster {
	tb.Helper()
	c, err := NewCluster(tb.TempDir(), n)
	if err != nil {
		tb.Fatalf("natstest: %v", err)
	}
	tb.Cleanup(c.Shutdown)
	return c
}

// Nodes returns the cluster's nodes.
func (c *Cluster) Nodes() []*Server { return c.nodes }

// URLs returns every node's client URL, comma-separated, as nats.Connect
// takes them.
func (c *Cluster) URLs() string {
	urls := make([]string, len(c.nodes))
	for i, s := range c.nodes {
		urls[i] = s.URL()
	}
	return strings.Join(urls, ",")
}

// Connect opens a client connection to the cluster that reconnects forever
// with a short wait, to whichever node is up.
func (c *Cluster) Connect(opts ...nats.Option) (*nats.Conn, jetstream.JetStream, error) {
	return connect(c.URLs(), opts...)
}

// MustConnect is Connect for tests.
func (c *Cluster) MustConnect(tb TB, opts ...nats.Option) (*nats.Conn, jetstream.JetStream) {
	tb.Helper()
	return mustConnect(tb, c.URLs(), opts)
}

// StreamLeader returns the node that leads the stream in the global
// account, waiting for one to be elected.
func (c *Cluster) StreamLeader(stream string) (*Server, error) {
	var leader *Server
	err := c.waitFor(func() bool {
		for _, s := range c.nodes {
			if ns := s.running(); ns != nil && ns.JetStreamIsStreamLeader(server.DEFAULT_GLOBAL_ACCOUNT, stream) {
				leader = s
				return true
			}
		}
		return false
	})
	return leader, err
}

// Shutdown stops every node.
func (c *Cluster) Shutdown() {
	for _, s := range c.nodes {
		s.Shutdown()
	}
}

func (c *Cluster) waitFor(cond func() bool) error {
	deadline := time.Now().Add(startTimeout)
	for !cond() {
		if time.Now().After(deadline) {
			return ErrNoLeader
		}
		time.Sleep(20 * time.Millisecond)
	}
	return nil
}

// freePorts returns n loopback ports that were free a moment ago. Route
// ports must be known before the first node starts, since each node's
// configuration names them all.
func freePorts(n int) ([]int, error) {
	var ls []net.Listener
	defer func() {
		for _, l := range ls {
			l.Close()
		}
	}()
	ports := make([]int, n)
	for i := range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("natstest: free port: %w", err)
		}
		ls = append(ls, l)
		ports[i] = l.Addr().(*net.TCPAddr).Port
	}
	return ports, nil
}
