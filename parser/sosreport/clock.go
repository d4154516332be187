package sosreport

// The clock of a sosreport's host when it was taken: the date in UTC and the
// host's zone, from its own files only (the date plugin's `date` and `date
// --utc`, the systemd plugin's `timedatectl`, the copy of either at the
// sosreport's top, sos_reports/manifest.json). journalctl's short form and
// the manifest's times are the host's wall clock without year or zone; the
// Clock turns them into UTC, so the lines of every part of an upload sort on
// one time axis.

import (
	"fmt"
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
	// abbr is the zone abbreviation of `date` output whose offset cannot
	// be told (ambiguous or not in zoneAbbrevs), and abbrFile the date
	// file that printed it; why says which ("ambiguous", "unknown").
	abbr, abbrFile, abbrWhy string
}

var (
	tdUniversalRe = regexp.MustCompile(`Universal time: \w+ (\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}) UTC`)
	tdLocalRe     = regexp.MustCompile(`Local time: \w+ (\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2})`)
	tdZoneRe      = regexp.MustCompile(`Time zone: ([A-Za-z0-9_+/-]{1,64}) \([^,)]{0,16}, ([+-])(\d{2})(\d{2})\)`)
	// dateOutRe is `date` output in the C/POSIX order ("Fri Feb 11
	// 14:24:03 EST 2022") or the day-first order of some locales ("Fri 11
	// Feb 2022 14:24:03 EST"), either with a 12-hour clock ("07:24:03 PM"):
	// weekday, month, day, clock, AM/PM, zone, year.
	dateOutRe = regexp.MustCompile(`^[A-Za-z]{3},? +(?:` +
		`([A-Za-z]{3}) +(\d{1,2}) +(\d{1,2}:\d{2}:\d{2})(?: +([AaPp][Mm]))? +([A-Za-z]{1,6}|[+-]\d{2}(?::?\d{2})?) +(\d{4})` +
		`|(\d{1,2}) +([A-Za-z]{3}) +(\d{4}) +(\d{1,2}:\d{2}:\d{2})(?: +([AaPp][Mm]))? +([A-Za-z]{1,6}|[+-]\d{2}(?::?\d{2})?))$`)
	numericZoneRe = regexp.MustCompile(`^([+-])(\d{2})(?::?(\d{2}))?$`)
)

// zoneAbbrevs are the zone abbreviations `date` prints whose offset is the
// same in every zone of the IANA database that uses them (checked against
// Go's copy of it by TestZoneAbbrevsMatchTZData), in seconds east of UTC.
var zoneAbbrevs = map[string]int{
	"UTC": 0, "GMT": 0, "Z": 0,
	"EST": -5 * 3600, "EDT": -4 * 3600,
	"MST": -7 * 3600, "MDT": -6 * 3600,
	"PDT": -7 * 3600,
	"CET": 3600, "CEST": 2 * 3600,
	"EET": 2 * 3600, "EEST": 3 * 3600,
	"WET": 0, "WEST": 3600,
	"JST": 9 * 3600, "KST": 9 * 3600,
	"AEST": 10 * 3600, "AEDT": 11 * 3600,
	"NZST": 12 * 3600, "NZDT": 13 * 3600,
}

// ambiguousAbbrevs are abbreviations that zones of the IANA database use
// with different offsets: IST (Asia/Kolkata +05:30, Europe/Dublin +01:00,
// Asia/Jerusalem +02:00), CST (America/Chicago -06:00, Asia/Shanghai
// +08:00, America/Havana -05:00), CDT (America/Chicago -05:00,
// America/Havana -04:00), PST (America/Los_Angeles -08:00, Asia/Manila
// +08:00). They are not guessed.
var ambiguousAbbrevs = map[string]bool{"IST": true, "CST": true, "CDT": true, "PST": true}

// zoneOffset returns the offset east of UTC that the zone field of `date`
// output names: exact for a numeric zone ("+0100", "-05", "+05:30"), from
// zoneAbbrevs for an abbreviation. Else why is "ambiguous" or "unknown".
func zoneOffset(zone string) (off time.Duration, why string) {
	if m := numericZoneRe.FindStringSubmatch(zone); m != nil {
		h, _ := strconv.Atoi(m[2])
		mi, _ := strconv.Atoi(m[3])
		if h > 14 || mi > 59 {
			return 0, "unknown"
		}
		off = time.Duration(h)*time.Hour + time.Duration(mi)*time.Minute
		if m[1] == "-" {
			off = -off
		}
		return off, ""
	}
	z := strings.ToUpper(zone)
	if ambiguousAbbrevs[z] {
		return 0, "ambiguous"
	}
	if s, ok := zoneAbbrevs[z]; ok {
		return time.Duration(s) * time.Second, ""
	}
	return 0, "unknown"
}

// parseDateOutput reads one line of `date` output (dateOutRe): the host's
// wall clock (labelled UTC) and its zone field. False when line is not
// such output or names no real time.
func parseDateOutput(line string) (wall time.Time, zone string, ok bool) {
	m := dateOutRe.FindStringSubmatch(line)
	if m == nil {
		return time.Time{}, "", false
	}
	mon, day, clock, ampm, year := m[1], m[2], m[3], m[4], m[6]
	zone = m[5]
	if mon == "" {
		day, mon, year, clock, ampm, zone = m[7], m[8], m[9], m[10], m[11], m[12]
	}
	layout := "Jan 2 2006 15:04:05"
	s := mon + " " + day + " " + year + " " + clock
	if ampm != "" {
		layout, s = "Jan 2 2006 3:04:05 PM", s+" "+strings.ToUpper(ampm)
	}
	wall, err := time.Parse(layout, s)
	if err != nil {
		return time.Time{}, "", false
	}
	return wall, zone, true
}

// parseDateFile reads a sosreport's date file p: timedatectl output
// ("Universal time: …", "Local time: …", "Time zone: Europe/Paris (CET,
// +0100)"), `date` output (parseDateOutput: "Fri Feb 11 14:24:03 EST 2022",
// "Fri Feb 11 07:24:03 PM UTC 2022", "… -05 2022"; the instant when its zone
// is numeric or in zoneAbbrevs, else only the wall clock, with the zone kept
// in abbr), or RFC 3339. local says the file is plain `date` output, printed
// in the host's zone (not `date --utc`): a UTC date there says the host's
// zone is UTC. When the file holds none of them, why says so ("is empty",
// "holds no date …") and ok is false.
//
// A date before 1970 or after 9000 is no collection date (a clock that was
// never set, or a hostile file whose times the reports could not write):
// it is not a date either, and why says so.
func parseDateFile(data []byte, p string, local bool) (f dateFacts, why string, ok bool) {
	f, why, ok = parseDateFileRaw(data, p, local)
	if !ok {
		return f, why, ok
	}
	for _, t := range []time.Time{f.utc, f.local} {
		if !t.IsZero() && (t.Year() < 1970 || t.Year() > 9000) {
			return dateFacts{}, fmt.Sprintf("the date file's year %d is no collection date: the sosreport's date is not known from it", t.Year()), false
		}
	}
	return f, "", true
}

func parseDateFileRaw(data []byte, p string, local bool) (f dateFacts, why string, ok bool) {
	s := nodelog.Text(data)
	if len(s) > 64<<10 {
		s = s[:64<<10]
	}
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
		return f, "", true
	}
	first := ""
	for _, line := range strings.Split(s, "\n") {
		line = strings.TrimSpace(line)
		if first == "" {
			first = line
		}
		if t, err := time.Parse(time.RFC3339, line); err == nil {
			return dateFacts{utc: t.UTC()}, "", true
		}
		wall, zone, ok := parseDateOutput(line)
		if !ok {
			continue
		}
		off, unknown := zoneOffset(zone)
		switch {
		case unknown != "":
			return dateFacts{local: wall, abbr: zone, abbrFile: p, abbrWhy: unknown}, "", true
		case off == 0 && !local:
			return dateFacts{utc: wall}, "", true
		}
		return dateFacts{utc: wall.Add(-off), local: wall, offset: off, hasOffset: true}, "", true
	}
	if strings.TrimSpace(s) == "" {
		return dateFacts{}, "the date file is empty: the sosreport's date is not known from it", false
	}
	if len(first) > 80 {
		first = first[:80] + "…"
	}
	return dateFacts{}, fmt.Sprintf("the date file holds no date (it begins %q): the sosreport's date is not known from it", first), false
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
	// ZoneProblem, when set, is the gather problem of the date file
	// ZoneFile: it names a zone whose offset cannot be told (ambiguous or
	// unknown abbreviation) and nothing else in the sosreport tells it.
	ZoneProblem, ZoneFile string
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
	if f.abbr == "" {
		f.abbr, f.abbrFile, f.abbrWhy = g.abbr, g.abbrFile, g.abbrWhy
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
	if !c.Known && f.abbr != "" {
		// Nothing else tells the zone the date file names: its wall
		// clock is taken as UTC, and the report says so.
		c.From = "the date file's wall clock taken as UTC"
		c.ZoneFile = f.abbrFile
		c.ZoneProblem = "the date file names zone " + f.abbr + ", which is " + f.abbrWhy +
			" (and the sosreport holds no date --utc, timedatectl or manifest epoch time to tell it); times are read as UTC"
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
