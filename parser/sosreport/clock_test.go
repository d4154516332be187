package sosreport

import (
	"archive/zip"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestClock(t *testing.T) {
	utc := func(s string) time.Time {
		tm, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return tm
	}
	wall := func(month time.Month, day, h, m int) time.Time { return time.Date(1, month, day, h, m, 0, 0, time.UTC) }
	for _, c := range []struct {
		name      string
		files     map[string]string // date file name → content
		manifest  sosRuntime
		wantUTC   string
		wantOff   time.Duration
		wall      time.Time // a journal line's wall time (year 1)
		wantLine  string
		wantKnown bool
		// wantProblem is the gather problem of a zone nothing tells.
		wantProblem string
	}{
		{name: "timedatectl zone, DST-aware", files: map[string]string{"timedatectl": "      Local time: Sun 2025-03-30 12:00:00 CEST\n  Universal time: Sun 2025-03-30 10:00:00 UTC\n       Time zone: Europe/Paris (CEST, +0200)\n"},
			wantUTC: "2025-03-30T10:00:00Z", wantOff: 2 * time.Hour, wantKnown: true,
			// Before the switch that night, Paris was +01:00.
			wall: wall(time.March, 30, 1, 30), wantLine: "2025-03-30T00:30:00Z"},
		{name: "local and UTC date files", files: map[string]string{"date": "Tue Mar  4 10:15:00 CET 2025\n", "date_--utc": "Tue Mar  4 09:15:00 UTC 2025\n"},
			wantUTC: "2025-03-04T09:15:00Z", wantOff: time.Hour, wantKnown: true, wall: wall(time.March, 4, 10, 5), wantLine: "2025-03-04T09:05:00Z"},
		{name: "New Year: a December line is of the year before", files: map[string]string{"date": "Thu Jan  2 03:00:00 EST 2025\n", "date_--utc": "Thu Jan  2 08:00:00 UTC 2025\n"},
			wantUTC: "2025-01-02T08:00:00Z", wantOff: -5 * time.Hour, wantKnown: true, wall: wall(time.December, 31, 22, 0), wantLine: "2025-01-01T03:00:00Z"},
		{name: "only a local date with an abbreviation: the manifest's epoch tells the offset",
			files:    map[string]string{"date": "Tue Mar  4 10:15:00 CET 2025\n"},
			manifest: sosRuntime{manifestStart: time.Date(2025, 3, 4, 10, 14, 40, 0, time.UTC), manEnd: time.Date(2025, 3, 4, 10, 16, 0, 0, time.UTC), manifestEpoch: utc("2025-03-04T09:14:41Z")},
			wantUTC:  "2025-03-04T09:15:00Z", wantOff: time.Hour, wantKnown: true, wall: wall(time.March, 4, 10, 5), wantLine: "2025-03-04T09:05:00Z"},
		{name: "ambiguous IST, date --utc tells the offset", files: map[string]string{"date": "Fri Feb 11 19:24:03 IST 2022\n", "date_--utc": "Fri Feb 11 13:54:03 UTC 2022\n"},
			wantUTC: "2022-02-11T13:54:03Z", wantOff: 5*time.Hour + 30*time.Minute, wantKnown: true, wall: wall(time.February, 11, 19, 0), wantLine: "2022-02-11T13:30:00Z"},
		{name: "ambiguous IST, timedatectl tells the zone", files: map[string]string{"date": "Fri Feb 11 14:24:03 IST 2022\n", "timedatectl": "      Local time: Fri 2022-02-11 14:24:03 GMT\n  Universal time: Fri 2022-02-11 14:24:03 UTC\n       Time zone: Europe/Dublin (GMT, +0000)\n"},
			wantUTC: "2022-02-11T14:24:03Z", wantKnown: true, wall: wall(time.February, 11, 14, 0), wantLine: "2022-02-11T14:00:00Z"},
		{name: "ambiguous IST, the manifest's epoch tells the offset", files: map[string]string{"date": "Fri Feb 11 19:24:03 IST 2022\n"},
			manifest: sosRuntime{manifestStart: time.Date(2022, 2, 11, 19, 23, 0, 0, time.UTC), manEnd: time.Date(2022, 2, 11, 19, 26, 0, 0, time.UTC), manifestEpoch: utc("2022-02-11T13:53:01Z")},
			wantUTC:  "2022-02-11T13:54:03Z", wantOff: 5*time.Hour + 30*time.Minute, wantKnown: true, wall: wall(time.February, 11, 19, 0), wantLine: "2022-02-11T13:30:00Z"},
		{name: "ambiguous IST alone: read as UTC, and said", files: map[string]string{"date": "Fri Feb 11 19:24:03 IST 2022\n"},
			wantUTC: "2022-02-11T19:24:03Z", wall: wall(time.February, 11, 19, 0), wantLine: "2022-02-11T19:00:00Z",
			wantProblem: "the date file names zone IST, which is ambiguous (and the sosreport holds no date --utc, timedatectl or manifest epoch time to tell it); times are read as UTC"},
		{name: "unknown abbreviation alone: read as UTC, and said", files: map[string]string{"date": "Fri Feb 11 19:24:03 XYZT 2022\n"},
			wantUTC: "2022-02-11T19:24:03Z", wall: wall(time.February, 11, 19, 0), wantLine: "2022-02-11T19:00:00Z",
			wantProblem: "the date file names zone XYZT, which is unknown (and the sosreport holds no date --utc, timedatectl or manifest epoch time to tell it); times are read as UTC"},
		{name: "EST alone: the journal follows the date file's zone", files: map[string]string{"date": "Fri Feb 11 14:24:03 EST 2022\n"},
			wantUTC: "2022-02-11T19:24:03Z", wantOff: -5 * time.Hour, wantKnown: true, wall: wall(time.February, 11, 14, 0), wantLine: "2022-02-11T19:00:00Z"},
		{name: "UTC date only, nothing else: taken as UTC", files: map[string]string{"date_--utc": "Tue Mar  4 09:15:00 UTC 2025\n"},
			wantUTC: "2025-03-04T09:15:00Z", wall: wall(time.March, 4, 9, 5), wantLine: "2025-03-04T09:05:00Z"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := c.manifest
			for name, content := range c.files {
				f, why, ok := parseDateFile([]byte(content), "sos_commands/date/"+name, name != "date_--utc")
				if !ok {
					t.Fatalf("%s: not read: %s", name, why)
				}
				s.dates.merge(f)
			}
			clk, ok := s.clock()
			if !ok || !clk.UTC.Equal(utc(c.wantUTC)) || clk.Offset != c.wantOff || clk.Known != c.wantKnown {
				t.Fatalf("clock %+v, want %s %v known=%v", clk, c.wantUTC, c.wantOff, c.wantKnown)
			}
			if clk.ZoneProblem != c.wantProblem {
				t.Errorf("zone problem %q, want %q", clk.ZoneProblem, c.wantProblem)
			}
			if got := clk.ToUTC(c.wall); !got.Equal(utc(c.wantLine)) {
				t.Errorf("line %v → %v, want %s", c.wall, got, c.wantLine)
			}
		})
	}
	if _, _, ok := parseDateFile([]byte("no date here\n"), "date", true); ok {
		t.Error("a file without a date was read")
	}
}

// Each form of `date` output a sosreport's date file holds gives the
// instant it names: a numeric zone exactly, a known abbreviation by its
// offset, a 12-hour clock by its AM/PM.
func TestParseDateFileZones(t *testing.T) {
	for _, c := range []struct {
		in, file string
		// wantUTC is the instant ("" when the zone cannot be told);
		// wantLocal the wall clock; wantAbbr the zone left unresolved.
		wantUTC, wantLocal, wantAbbr string
		wantOff                      time.Duration
	}{
		{in: "Fri Feb 11 14:24:03 EST 2022", wantUTC: "2022-02-11T19:24:03Z", wantLocal: "2022-02-11T14:24:03Z", wantOff: -5 * time.Hour},
		{in: "Fri Feb 11 20:24:03 CET 2022", wantUTC: "2022-02-11T19:24:03Z", wantLocal: "2022-02-11T20:24:03Z", wantOff: time.Hour},
		{in: "Fri Feb 11 14:24:03 -05 2022", wantUTC: "2022-02-11T19:24:03Z", wantLocal: "2022-02-11T14:24:03Z", wantOff: -5 * time.Hour},
		{in: "Fri Feb 11 20:24:03 +0100 2022", wantUTC: "2022-02-11T19:24:03Z", wantLocal: "2022-02-11T20:24:03Z", wantOff: time.Hour},
		{in: "Sat Feb 12 00:54:03 +05:30 2022", wantUTC: "2022-02-11T19:24:03Z", wantLocal: "2022-02-12T00:54:03Z", wantOff: 5*time.Hour + 30*time.Minute},
		{in: "Fri Feb 11 07:24:03 PM UTC 2022", wantUTC: "2022-02-11T19:24:03Z", wantLocal: "2022-02-11T19:24:03Z"},
		{in: "Fri Feb 11 12:24:03 AM UTC 2022", wantUTC: "2022-02-11T00:24:03Z", wantLocal: "2022-02-11T00:24:03Z"},
		{in: "Fri 11 Feb 2022 02:24:03 PM EST", wantUTC: "2022-02-11T19:24:03Z", wantLocal: "2022-02-11T14:24:03Z", wantOff: -5 * time.Hour},
		{in: "Sat Feb 12 04:24:03 JST 2022", wantUTC: "2022-02-11T19:24:03Z", wantLocal: "2022-02-12T04:24:03Z", wantOff: 9 * time.Hour},
		{in: "Sat Feb 12 08:24:03 NZDT 2022", wantUTC: "2022-02-11T19:24:03Z", wantLocal: "2022-02-12T08:24:03Z", wantOff: 13 * time.Hour},
		{in: "Fri Feb 11 19:24:03 UTC 2022", file: "date_--utc", wantUTC: "2022-02-11T19:24:03Z"},
		{in: "Sat Feb 12 00:54:03 IST 2022", wantLocal: "2022-02-12T00:54:03Z", wantAbbr: "IST"},
		{in: "Fri Feb 11 13:24:03 CST 2022", wantLocal: "2022-02-11T13:24:03Z", wantAbbr: "CST"},
		{in: "Fri Feb 11 13:24:03 QQT 2022", wantLocal: "2022-02-11T13:24:03Z", wantAbbr: "QQT"},
	} {
		t.Run(c.in, func(t *testing.T) {
			file := c.file
			if file == "" {
				file = "date"
			}
			f, why, ok := parseDateFile([]byte(c.in+"\n"), "sos_commands/date/"+file, file == "date")
			if !ok {
				t.Fatalf("not read: %s", why)
			}
			str := func(tm time.Time) string {
				if tm.IsZero() {
					return ""
				}
				return tm.Format(time.RFC3339)
			}
			got := [3]string{str(f.utc), str(f.local), f.abbr}
			if want := [3]string{c.wantUTC, c.wantLocal, c.wantAbbr}; got != want {
				t.Errorf("utc, local, zone %q, want %q", got, want)
			}
			if f.offset != c.wantOff {
				t.Errorf("offset %v, want %v", f.offset, c.wantOff)
			}
		})
	}
}

// A date file without a date says why: empty, or what it holds instead.
func TestParseDateFileNoDate(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", "the date file is empty: the sosreport's date is not known from it"},
		{" \n\n", "the date file is empty: the sosreport's date is not known from it"},
		{"date: cannot access clock\n", `the date file holds no date (it begins "date: cannot access clock"): the sosreport's date is not known from it`},
		{"\x00\x01garbage", `the date file holds no date (it begins "\x00\x01garbage"): the sosreport's date is not known from it`},
		{"Fri Dec 31 23:30:00 -14 9999\n", "the date file's year 10000 is no collection date: the sosreport's date is not known from it"},
		{"Sat Jan  1 00:30:00 +14 0000\n", "the date file's year -1 is no collection date: the sosreport's date is not known from it"},
		{"Thu Jan  1 00:00:05 UTC 1970\n", ""},
	} {
		if c.want == "" {
			if _, why, ok := parseDateFile([]byte(c.in), "sos_commands/date/date", true); !ok {
				t.Errorf("%q: not read (%s)", c.in, why)
			}
			continue
		}
		if _, why, ok := parseDateFile([]byte(c.in), "sos_commands/date/date", true); ok || why != c.want {
			t.Errorf("%q: ok=%v why %q, want %q", c.in, ok, why, c.want)
		}
	}
}

// Every abbreviation of zoneAbbrevs has its one offset in every zone of the
// IANA database that prints it (2020–2030), and every one of
// ambiguousAbbrevs has several: read from Go's own copy of the database.
func TestZoneAbbrevsMatchTZData(t *testing.T) {
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Skipf("no go command to find the zone database: %v", err)
	}
	z, err := zip.OpenReader(filepath.Join(strings.TrimSpace(string(goroot)), "lib", "time", "zoneinfo.zip"))
	if err != nil {
		t.Skipf("no zone database in GOROOT to check against: %v", err)
	}
	defer z.Close()
	offsets := map[string]map[int][]string{} // abbreviation → offset → zones
	for _, f := range z.File {
		r, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(r)
		r.Close()
		if err != nil {
			t.Fatal(err)
		}
		loc, err := time.LoadLocationFromTZData(f.Name, data)
		if err != nil {
			continue
		}
		for y := 2020; y <= 2030; y++ {
			for m := time.January; m <= time.December; m++ {
				name, off := time.Date(y, m, 15, 12, 0, 0, 0, time.UTC).In(loc).Zone()
				if offsets[name] == nil {
					offsets[name] = map[int][]string{}
				}
				if l := offsets[name][off]; len(l) == 0 || l[len(l)-1] != f.Name {
					offsets[name][off] = append(l, f.Name)
				}
			}
		}
	}
	for abbr, want := range zoneAbbrevs {
		if abbr == "Z" {
			continue // military/ISO 8601 letter, no zone prints it
		}
		for off, zones := range offsets[abbr] {
			if off != want {
				t.Errorf("%s is %+ds in the table but %+ds in %v", abbr, want, off, zones)
			}
		}
		if len(offsets[abbr]) == 0 {
			t.Errorf("%s: no zone of the database prints it", abbr)
		}
	}
	for abbr := range ambiguousAbbrevs {
		if len(offsets[abbr]) < 2 {
			t.Errorf("%s is said ambiguous but the database gives it offsets %v", abbr, offsets[abbr])
		}
		if _, ok := zoneAbbrevs[abbr]; ok {
			t.Errorf("%s is both known and ambiguous", abbr)
		}
	}
}
