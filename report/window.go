package report

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// Window is the incident window of `analyze --window FROM..TO`: both ends
// included, UTC; a nil end is open. The zero Window holds every time.
// FindingsOutside is how many findings Build left out for lying outside it
// (see inWindow).
type Window struct {
	From            *time.Time `json:"from,omitempty"`
	To              *time.Time `json:"to,omitempty"`
	FindingsOutside int        `json:"findingsOutside"`
}

// ParseWindow reads "FROM..TO": two RFC 3339 times (with a zone: "Z" or
// "+02:00"), either of which may be left empty for an open end
// ("2026-11-20T09:00:00Z.."), FROM not after TO. The error says what is
// wrong in words for the command line.
func ParseWindow(s string) (Window, error) {
	from, to, ok := strings.Cut(strings.TrimSpace(s), "..")
	if !ok || strings.Contains(to, "..") {
		return Window{}, errors.New("want FROM..TO, two RFC 3339 times such as 2026-11-20T09:00:00Z..2026-11-20T11:00:00Z (either side may be empty)")
	}
	var w Window
	for _, end := range []struct {
		name, text string
		dst        **time.Time
	}{{"FROM", from, &w.From}, {"TO", to, &w.To}} {
		text := strings.TrimSpace(end.text)
		if text == "" {
			continue
		}
		t, err := time.Parse(time.RFC3339Nano, text)
		if err != nil {
			return Window{}, fmt.Errorf("%s %q is not an RFC 3339 time with a zone, such as 2026-11-20T09:00:00Z", end.name, text)
		}
		t = t.UTC()
		if t.Year() < 1 || t.Year() > 9999 {
			return Window{}, fmt.Errorf("%s %q lies outside the years 0001 to 9999 once in UTC", end.name, text)
		}
		*end.dst = &t
	}
	if w.From == nil && w.To == nil {
		return Window{}, errors.New("names neither FROM nor TO; give at least one, such as 2026-11-20T09:00:00Z.. (from that time on)")
	}
	if w.From != nil && w.To != nil && w.From.After(*w.To) {
		return Window{}, fmt.Errorf("FROM %s is after TO %s", w.From.Format(time.RFC3339Nano), w.To.Format(time.RFC3339Nano))
	}
	return w, nil
}

// IsZero reports whether w narrows nothing.
func (w Window) IsZero() bool { return w.From == nil && w.To == nil }

// Contains reports whether t lies in w, ends included.
func (w Window) Contains(t time.Time) bool { return w.Overlaps(t, nil) }

// Overlaps reports whether the span from first to last (last nil: the
// instant first) meets w, ends included.
func (w Window) Overlaps(first time.Time, last *time.Time) bool {
	end := first
	if last != nil && last.After(first) {
		end = *last
	}
	return (w.From == nil || !end.Before(*w.From)) && (w.To == nil || !first.After(*w.To))
}

// String is "FROM..TO" in RFC 3339, an open end left empty.
func (w Window) String() string {
	var from, to string
	if w.From != nil {
		from = w.From.UTC().Format(time.RFC3339Nano)
	}
	if w.To != nil {
		to = w.To.UTC().Format(time.RFC3339Nano)
	}
	return from + ".." + to
}

// Words is how a report header states w: "from 2026-11-20T09:00:00Z to
// 2026-11-20T11:00:00Z", "from ... on", "up to ...", with the findings left
// out.
func (w Window) Words() string {
	s := windowBounds(&w)
	if s == "none" {
		return s
	}
	return s + " (" + countNoun(w.FindingsOutside, "finding", "findings") + " outside it left out; timelines show only what falls in it)"
}

// inWindow reports whether finding f is kept by w. A finding whose evidence
// carries times is kept when one of them lies in w. A finding with no timed
// evidence states its subject's state at the gather time: it is kept when the
// gather time (collectedAt) lies in w, and when that time is unknown too
// (nothing to judge it by, so it is not dropped).
func inWindow(f Finding, w Window, collectedAt *time.Time) bool {
	if w.IsZero() {
		return true
	}
	timed := false
	for _, e := range f.Evidence {
		if e.Time == nil {
			continue
		}
		timed = true
		if w.Contains(*e.Time) {
			return true
		}
	}
	if timed {
		return false
	}
	return collectedAt == nil || w.Contains(*collectedAt)
}

// windowNote is what a report says, where its findings would be, when
// --window left every finding out: that none falls in the window, how many
// lie outside it, and when the window starts after the gather time (so
// nothing the gather holds can fall in it). "" when there is no window or
// it left nothing out.
func windowNote(r *Report) string {
	w := r.Window
	if w == nil || w.FindingsOutside == 0 {
		return ""
	}
	s := fmt.Sprintf("No finding falls in the window %s; %s outside it %s left out: run without --window to see them.",
		windowBounds(w), countNoun(w.FindingsOutside, "finding", "findings"), map[bool]string{true: "was", false: "were"}[w.FindingsOutside == 1])
	if g := r.Gather.CollectedAt; g != nil && w.From != nil && w.From.After(*g) {
		s += " The window starts after the gather time (" + formatTime(g) + "): nothing the gather holds can fall in it."
	}
	return s
}

// windowBounds is "from A to B", "from A on" or "up to B".
func windowBounds(w *Window) string {
	switch {
	case w.From != nil && w.To != nil:
		return "from " + formatTime(w.From) + " to " + formatTime(w.To)
	case w.From != nil:
		return "from " + formatTime(w.From) + " on"
	case w.To != nil:
		return "up to " + formatTime(w.To)
	}
	return "none"
}
