package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

// signalError is the cause of a run's context when SIGINT or SIGTERM
// stopped it.
type signalError struct{ sig os.Signal }

func (e signalError) Error() string { return "stopped by " + signalName(e.sig) }

// signalName is "SIGINT", "SIGTERM", or the signal's own text.
func signalName(s os.Signal) string {
	switch s {
	case os.Interrupt:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	}
	return s.String()
}

// withSignals returns a context that ends, with a signalError as its cause,
// when the process receives SIGINT or SIGTERM; until stop is called those
// signals no longer end the process, so the run removes what it wrote and
// leaves the output folder as it was (or finishes a swap it began).
func withSignals(parent context.Context) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(parent)
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case s := <-ch:
			cancel(signalError{s})
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(ch)
		close(done)
		cancel(nil)
	}
}

// stoppedBySignal is the exit code (128 + the signal's number: 130 for
// SIGINT, 143 for SIGTERM) and the message of a run whose context a signal
// ended, given what the run returned; ok is false when no signal came.
func stoppedBySignal(ctx context.Context, err error) (code int, msg string, ok bool) {
	var se signalError
	if !errors.As(context.Cause(ctx), &se) {
		return 0, "", false
	}
	code = 128 + 2
	if n, isNum := se.sig.(syscall.Signal); isNum {
		code = 128 + int(n)
	}
	var ee exitError
	switch {
	case err == nil:
		msg = fmt.Sprintf("stopped by %s after the reports were written", signalName(se.sig))
	case errors.Is(err, context.Canceled) || errors.Is(err, errStopped):
		msg = fmt.Sprintf("stopped by %s before the reports were replaced: the output folder holds what it held before, and this run's temporary files were removed", signalName(se.sig))
	case errors.As(err, &ee) && ee.msg == "":
		msg = fmt.Sprintf("stopped by %s", signalName(se.sig))
	default:
		msg = fmt.Sprintf("stopped by %s: %v", signalName(se.sig), err)
	}
	return code, msg, true
}
