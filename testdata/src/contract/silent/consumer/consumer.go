// Package consumer uses the helper packages of contract/silent, so that
// the silence test judges them as dependencies.
package consumer

import (
	"context"

	"contract/silent/classify"
	"contract/silent/deadletter"
	"contract/silent/exits"
	"contract/silent/flatten"
	"contract/silent/marked"
	"contract/silent/mw"
	"contract/silent/registry"
	"contract/silent/runner"
	"contract/silent/subjects"
	"contract/silent/wrap"
)

// Park keeps a payload that failed for good.
func Park(ctx context.Context, s *deadletter.Store, payload []byte) error {
	if err := marked.Archive("parked", payload); err != nil {
		return err
	}
	return s.Park(ctx, payload)
}

// Setup registers the jobs.
func Setup(r *registry.Registry) mw.Handler {
	r.Register(subjects.Orders, func(ctx context.Context, payload []byte) error {
		if len(payload) == 0 {
			exits.Fail("empty payload")
		}
		return nil
	})
	return mw.Logged(func(ctx context.Context, payload []byte) error {
		if err := run(ctx, r, payload); err != nil && classify.ShouldRetry(err) {
			return wrap.Wrap(err)
		} else if err != nil {
			flatten.Remember(err)
			return err
		}
		return nil
	})
}

func run(ctx context.Context, r *registry.Registry, payload []byte) error {
	if _, ok := r.Lookup(subjects.Orders); !ok {
		return classify.Timeout{}
	}
	return runner.Run(ctx, r, subjects.Orders, payload)
}
