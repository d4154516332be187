package sosreport

// The clock of a sosreport's host when it was taken: the date in UTC and the
// host's zone, from its own files only (the date plugin's `date` and `date
// --utc`, the systemd plugin's `timedatectl`, the copy of either at the
// sosreport's top, sos_reports/manifest.json). journalctl's short form and
// the manifest's times are the host's wall clock without year or zone; the
// Clock turns them into UTC, so the lines of every part of an upload sort on
// one time axis.

import (
	"regexp"
	"strconv"
	"strings"
	"time"
	_ "time/tzdata" // zone names of timedatectl ("Europe/Paris") on hosts without a zone database

	"github.com/mgtriage/mgtriage/parser/nodelog"
)

// dateFacts is what one date file says: the time in UTC and/or the host's
// wall clock (as a UTC-labelled time), the zone name and its offset.
type dateFacts struct {
	utc, local time.Time
	zone       string // IANA name of timedatectl's "Time zone:" line
	offset     time.Duration
	hasOffset  bool
}

var (
	tdUniversalRe = regexp.MustCompile(`Universal time: \w+ (\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}) UTC`)
	tdLocalRe     = regexp.MustCompile(`Local time: \w+ (\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2})`)
	tdZoneRe      = regexp.MustCompile(`Time zone: ([A-Za-z0-9_+/-]{1,64}) \([^,)]{0,16}, ([+-])(\d{2})(\d{2})\)`)
)

// parseDateFile reads a sosreport's date file: timedatectl output
// ("Universal time: …", "Local time: …", "Time zone: Europe/Paris (CET,
// +0100)"), or `date` output ("Tue Mar  4 10:15:00 CET 2025": the wall clock;
// the instant when the zone is UTC, GMT or numeric), or RFC 3339. local says
// the file is plain `date` output, printed in the host's zone (not `date
// --utc`): a UTC date there says the host's zone is UTC. False when the file
// holds none of them.
func parseDateFile(data []byte, local bool) (dateFacts, bool) {
	s := nodelog.Text(data)
	if len(s) > 64<<10 {
		s = s[:64<<10]
	}
	var f dateFacts
	if m := tdUniversalRe.FindStringSubmatch(s); m != nil {
		f.utc, _ = time.Parse(time.DateTime, m[1])
	}
	if m := tdLocalRe.FindStringSubmatch(s); m != nil {
		f.local, _ = time.Parse(time.DateTime, m[1])
	}
	if m := tdZoneRe.FindStringSubmatch(s); m != nil {
		h, _ := strconv.Atoi(m[3])
		mi, _ := strconv.Atoi(m[4])
		f.offset, f.hasOffset = time.Duration(h)*time.Hour+time.Duration(mi)*time.Minute, true
		if m[2] == "-" {
			f.offset = -f.offset
		}
		f.zone = m[1]
	}
	if !f.utc.IsZero() || !f.local.IsZero() {
		return f, true
	}
	for _, line := range strings.Split(s, "\n") {
		line = strings.TrimSpace(line)
		if t, err := time.Parse(time.RFC3339, line); err == nil {
			return dateFacts{utc: t.UTC()}, true
		}
		for _, layout := range []string{"Mon Jan _2 15:04:05 MST 2006", "Mon Jan _2 15:04:05 -0700 2006", "Mon _2 Jan 2006 15:04:05 MST"} {
			t, err := time.Parse(layout, line)
			if err != nil {
				continue
			}
			name, off := t.Zone()
			wall := time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), 0, time.UTC)
			switch {
			case name == "UTC" || name == "GMT":
				if !local {
					return dateFacts{utc: wall}, true
				}
				return dateFacts{utc: wall, local: wall, hasOffset: true}, true
			case off != 0 || strings.Contains(layout, "-0700"):
				return dateFacts{utc: t.UTC(), local: wall, offset: time.Duration(off) * time.Second, hasOffset: true}, true
			}
			// A zone abbreviation (CET, EST): Go does not know its offset.
			return dateFacts{local: wall}, true
		}
	}
	return dateFacts{}, false
}

// Clock is a sosreport's clock: when it was taken (UTC), the host's wall
// clock at that moment, and the host's zone (Location when the zone name is
// known, else a fixed Offset). Zero when the sosreport holds no date.
type Clock struct {
	// UTC is the date of the date plugin in UTC.
	UTC time.Time
	// Local is the host's wall clock at UTC, labelled UTC.
	Local time.Time
	// Offset is the host's offset from UTC at UTC; Known says it was
	// found (a numeric zone, local and UTC dates side by side, or the
	// manifest's local and epoch times), else Offset is 0 and times are
	// taken as UTC.
	Offset time.Duration
	Known  bool
	// Location is the host's zone when timedatectl names it; nil
	// otherwise (Offset then applies to every time, whatever the
	// daylight-saving rules).
	Location *time.Location
	// From says where the offset came from, for the report.
	From string
}

// merge adds what a date file says to what the sosreport's other date
// files said: a fact already known is kept.
func (f *dateFacts) merge(g dateFacts) {
	if f.utc.IsZero() {
		f.utc = g.utc
	}
	if f.local.IsZero() {
		f.local = g.local
	}
	if g.hasOffset && (!f.hasOffset || (g.zone != "" && f.zone == "")) {
		// timedatectl's named zone wins over a date file's offset.
		f.offset, f.hasOffset = g.offset, true
		if g.zone != "" {
			f.zone = g.zone
		}
	}
}

// clock settles the facts of the date files into a Clock; the manifest's
// offset (manifestOffset) stands in when the date files tell no zone. False
// when there is no date at all.
func (s *sosRuntime) clock() (Clock, bool) {
	f := s.dates
	var c Clock
	switch {
	case f.hasOffset && f.zone != "":
		c.Offset, c.Known, c.From = f.offset, true, "timedatectl Time zone: "+f.zone
		if loc, err := time.LoadLocation(f.zone); err == nil {
			c.Location = loc
		}
	case f.hasOffset:
		c.Offset, c.Known, c.From = f.offset, true, "the zone of the date file"
	case !f.utc.IsZero() && !f.local.IsZero():
		c.Offset, c.Known, c.From = f.local.Sub(f.utc).Round(15*time.Minute), true, "the local and UTC date files"
	default:
		c.Offset, c.Known, c.From = s.manifestOffset()
	}
	c.UTC, c.Local = f.utc, f.local
	switch {
	case c.UTC.IsZero() && !c.Local.IsZero():
		c.UTC = c.Local.Add(-c.Offset)
	case c.Local.IsZero() && !c.UTC.IsZero():
		c.Local = c.UTC.Add(c.Offset)
	}
	if c.Location != nil && !c.UTC.IsZero() {
		// The zone's own offset at the date (daylight-saving time).
		_, off := c.UTC.In(c.Location).Zone()
		c.Offset = time.Duration(off) * time.Second
	}
	return c, !c.UTC.IsZero()
}

// manifestOffset is the offset from UTC of the times sos_reports/
// manifest.json writes without a zone (Python's datetime.now() of the sos
// process): its start against the earliest epoch start of its commands (the
// same process, seconds apart), else its start against the UTC date (the
// date plugin runs within minutes of the start); rounded to 15 minutes.
// False when the manifest tells neither.
func (s *sosRuntime) manifestOffset() (time.Duration, bool, string) {
	switch {
	case s.manifestStart.IsZero():
	case !s.manifestEpoch.IsZero():
		return s.manifestStart.Sub(s.manifestEpoch).Round(15 * time.Minute), true, "the manifest's local and epoch times"
	case !s.dates.utc.IsZero():
		return s.manifestStart.Sub(s.dates.utc).Round(15 * time.Minute), true, "the manifest's start against the UTC date"
	}
	return 0, false, ""
}

// ToUTC returns the instant of the host's wall-clock time wall (labelled
// UTC, as journalctl's short form and the manifest print it). A wall time of
// year 1 (journalctl prints none) takes the year of the sosreport's own
// local date, or the year before when its month is later than the date's.
func (c Clock) ToUTC(wall time.Time) time.Time {
	if wall.IsZero() {
		return wall
	}
	if wall.Year() == 1 && !c.Local.IsZero() {
		year := c.Local.Year()
		if wall.Month() > c.Local.Month() {
			year--
		}
		wall = wall.AddDate(year-1, 0, 0)
	}
	if c.Location != nil {
		return time.Date(wall.Year(), wall.Month(), wall.Day(), wall.Hour(), wall.Minute(), wall.Second(), wall.Nanosecond(), c.Location).UTC()
	}
	return wall.Add(-c.Offset)
}
