package main

import (
	"os"
	"sync"
	"time"

	"github.com/jedib0t/go-pretty/v6/progress"
)

// progressDelay is how long a run goes before a progress bar appears: short
// runs print nothing.
const progressDelay = time.Second

// readProgress shows the bytes read of an archive input as a progress bar on
// stderr, only when stderr is a terminal and only once the run has lasted
// progressDelay. It is inert (nil OnRead) for folders and non-terminals.
type readProgress struct {
	mu      sync.Mutex
	tracker *progress.Tracker
	writer  progress.Writer
	timer   *time.Timer
	started bool
}

// newReadProgress returns nil when no bar should be drawn.
func newReadProgress(streams IOStreams, path string) *readProgress {
	if !streams.ErrIsTerminal {
		return nil
	}
	fi, err := os.Stat(path)
	if err != nil || fi.IsDir() {
		return nil
	}
	w := progress.NewWriter()
	w.SetOutputWriter(streams.ErrOut)
	w.SetAutoStop(false)
	w.SetTrackerLength(30)
	w.SetUpdateFrequency(100 * time.Millisecond)
	w.Style().Visibility.ETA = true
	w.Style().Colors = progress.StyleColorsDefault
	if streams.NoColor {
		w.Style().Colors = progress.StyleColors{}
	}
	t := &progress.Tracker{Message: "reading " + shortName(path), Total: fi.Size(), Units: progress.UnitsBytes}
	w.AppendTracker(t)
	p := &readProgress{tracker: t, writer: w}
	p.timer = time.AfterFunc(progressDelay, func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		if !p.tracker.IsDone() {
			p.started = true
			go w.Render()
		}
	})
	return p
}

// onRead is the parser's callback; it is safe for a nil p.
func (p *readProgress) onRead() func(int64) {
	if p == nil {
		return nil
	}
	return func(n int64) { p.tracker.Increment(n) }
}

// stop removes the bar.
func (p *readProgress) stop() {
	if p == nil {
		return
	}
	p.timer.Stop()
	p.mu.Lock()
	defer p.mu.Unlock()
	p.tracker.MarkAsDone()
	if p.started {
		time.Sleep(150 * time.Millisecond) // let the last frame draw
		p.writer.Stop()
	}
}

func shortName(p string) string {
	if len(p) <= 40 {
		return p
	}
	return "…" + p[len(p)-39:]
}
