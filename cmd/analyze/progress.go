package main

import (
	"cmp"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/jedib0t/go-pretty/v6/progress"
	"github.com/jedib0t/go-pretty/v6/text"
	"github.com/mgtriage/mgtriage/parser"
	"github.com/mgtriage/mgtriage/report"
)

// progressDelay is how long a run goes before a progress bar appears: short
// runs print nothing (IOStreams.ProgressDelay).
const progressDelay = time.Second

// progressRefresh is how often the bar and the overview are drawn: four
// times a second at most.
const progressRefresh = 250 * time.Millisecond

// overviewNames is how many names a line of the overview lists before
// "N more"; overviewNameRunes bounds each name.
const (
	overviewNames     = 3
	overviewNameRunes = 60
)

// readProgress shows, while an archive input is read, an overview of what was
// read so far (cluster version, NotReady nodes, degraded or unavailable
// ClusterOperators, pods not healthy: parser.Live) above a bar of the bytes
// read with their rate and ETA, on stderr, only when stderr is a terminal
// and only once the read has lasted IOStreams.ProgressDelay. It is inert
// (nil OnRead, nil Live) for folders and non-terminals, which see nothing of
// it. The bar and the overview go when the load returns; only the bar's
// last line stays.
type readProgress struct {
	mu       sync.Mutex
	tracker  *progress.Tracker
	writer   progress.Writer
	frames   *frameCounter
	timer    *time.Timer
	started  bool
	overview *parser.Live
	quit     chan struct{} // ends refreshOverview
	drawing  sync.WaitGroup
}

// frameCounter counts the frames the bar's writer draws: each frame is one
// Write.
type frameCounter struct {
	w     io.Writer
	mu    sync.Mutex
	drawn int
}

func (f *frameCounter) Write(b []byte) (int, error) {
	f.mu.Lock()
	f.drawn++
	f.mu.Unlock()
	return f.w.Write(b)
}

func (f *frameCounter) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.drawn
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
	frames := &frameCounter{w: streams.ErrOut}
	w.SetOutputWriter(frames)
	w.SetAutoStop(false)
	w.SetTrackerLength(30)
	// Every line is cut to the terminal's width: a line that wrapped would
	// take two rows where the next frame moves up one.
	w.SetTerminalWidth(cmp.Or(streams.ErrWidth, 80))
	w.SetUpdateFrequency(progressRefresh)
	w.Style().Visibility.ETA = true
	w.Style().Visibility.Speed = true
	w.Style().Options.TimeInProgressPrecision = 100 * time.Millisecond
	w.Style().Colors = progress.StyleColorsDefault
	w.Style().Colors.Pinned = text.Colors{text.Bold}
	if streams.NoColor {
		w.Style().Colors = progress.StyleColors{}
	}
	// The bar stays until the load returns (stop), with the overview above
	// it, however soon the last byte is read.
	t := &progress.Tracker{Message: "reading " + report.ClipLine(shortName(path), 0), Total: fi.Size(), Units: progress.UnitsBytes, AutoStopDisabled: true}
	w.AppendTracker(t)
	p := &readProgress{tracker: t, writer: w, frames: frames, overview: new(parser.Live), quit: make(chan struct{})}
	p.timer = time.AfterFunc(streams.ProgressDelay, func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		if !p.tracker.IsDone() {
			p.started = true
			p.drawing.Add(1)
			go p.refreshOverview()
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

// live is what the load keeps up to date for the overview
// (parser.Options.Live); nil for a nil p.
func (p *readProgress) live() *parser.Live {
	if p == nil {
		return nil
	}
	return p.overview
}

// refreshOverview pins the overview's lines above the bar each time what was
// read changes, checked at the bar's own rate, until p.quit closes; then it
// pins what was read in all.
func (p *readProgress) refreshOverview() {
	defer p.drawing.Done()
	tick := time.NewTicker(progressRefresh)
	defer tick.Stop()
	var seq uint64
	for {
		if o := p.overview.Overview(overviewNames); o.Seq != seq {
			seq = o.Seq
			p.writer.SetPinnedMessages(overviewLines(o)...)
		}
		select {
		case <-p.quit:
			if o := p.overview.Overview(overviewNames); o.Seq != seq {
				p.writer.SetPinnedMessages(overviewLines(o)...)
			}
			return
		case <-tick.C:
		}
	}
}

// stop removes the bar and the overview once a frame has shown the overview
// of all that was read (so a read shorter than a frame shows it too), and
// returns when the bar's last line is drawn.
func (p *readProgress) stop() {
	if p == nil {
		return
	}
	p.timer.Stop()
	p.mu.Lock()
	defer p.mu.Unlock()
	close(p.quit)
	p.drawing.Wait()
	if !p.started {
		p.tracker.MarkAsDone()
		return
	}
	// The next frame shows the last pins (unless it was being drawn while
	// they were set: then the one before showed nearly all of it).
	drawn := p.frames.count()
	waitFor(func() bool { return p.frames.count() > drawn }, 2*progressRefresh)
	p.tracker.MarkAsDone()
	p.writer.Stop()
	waitFor(func() bool { return !p.writer.IsRenderInProgress() }, 3*progressRefresh)
}

// waitFor polls done until it is true or limit has passed.
func waitFor(done func() bool, limit time.Duration) {
	for end := time.Now().Add(limit); !done() && time.Now().Before(end); {
		time.Sleep(10 * time.Millisecond)
	}
}

// overviewLines are the overview's lines for what o holds: one line per
// kind of object read so far, none before any is read. Every name from the
// gather is cleaned for the terminal (report.ClipLine).
func overviewLines(o parser.Overview) []string {
	var lines []string
	if o.Version != "" {
		line := "cluster   version " + report.ClipLine(o.Version, overviewNameRunes)
		if o.Desired != "" && o.Desired != o.Version {
			line += ", updating to " + report.ClipLine(o.Desired, overviewNameRunes)
		}
		lines = append(lines, line)
	}
	if o.Nodes > 0 {
		line := "nodes     " + count(o.Nodes, "node", "nodes") + ", "
		if o.NotReady == 0 {
			line += "none NotReady"
		} else {
			line += fmt.Sprintf("%d NotReady: %s", o.NotReady, nameList(o.NotReadyNames, o.NotReady))
		}
		lines = append(lines, line)
	}
	if o.Operators > 0 {
		line := "operators " + count(o.Operators, "ClusterOperator", "ClusterOperators") + ", "
		var bad []string
		if o.DegradedCount > 0 {
			bad = append(bad, fmt.Sprintf("%d degraded: %s", o.DegradedCount, nameList(o.Degraded, o.DegradedCount)))
		}
		if o.UnavailableCount > 0 {
			bad = append(bad, fmt.Sprintf("%d unavailable: %s", o.UnavailableCount, nameList(o.Unavailable, o.UnavailableCount)))
		}
		if len(bad) == 0 {
			bad = append(bad, "none degraded or unavailable")
		}
		lines = append(lines, line+strings.Join(bad, "; "))
	}
	if o.Pods > 0 {
		line := "pods      " + count(o.Pods, "pod", "pods") + ", "
		if o.Unhealthy == 0 {
			line += "all healthy so far"
		} else {
			shown := make([]string, len(o.UnhealthyPods))
			for i, pod := range o.UnhealthyPods {
				shown[i] = report.ClipLine(pod.String(), overviewNameRunes) + " " + report.ClipLine(pod.Status, overviewNameRunes)
			}
			line += fmt.Sprintf("%d not healthy so far: %s", o.Unhealthy, moreList(shown, o.Unhealthy))
		}
		lines = append(lines, line)
	}
	return lines
}

// nameList is names, cleaned, then "N more" when they are the first of all.
func nameList(names []string, all int) string {
	shown := make([]string, len(names))
	for i, n := range names {
		shown[i] = report.ClipLine(n, overviewNameRunes)
	}
	return moreList(shown, all)
}

func moreList(shown []string, all int) string {
	s := strings.Join(shown, ", ")
	if all > len(shown) {
		s += fmt.Sprintf(", %d more", all-len(shown))
	}
	return s
}

func shortName(p string) string {
	if len(p) <= 40 {
		return p
	}
	return "…" + p[len(p)-39:]
}
