package sosreport

import (
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
		{name: "UTC date only, nothing else: taken as UTC", files: map[string]string{"date_--utc": "Tue Mar  4 09:15:00 UTC 2025\n"},
			wantUTC: "2025-03-04T09:15:00Z", wall: wall(time.March, 4, 9, 5), wantLine: "2025-03-04T09:05:00Z"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := c.manifest
			for name, content := range c.files {
				f, ok := parseDateFile([]byte(content), name != "date_--utc")
				if !ok {
					t.Fatalf("%s: not read", name)
				}
				s.dates.merge(f)
			}
			clk, ok := s.clock()
			if !ok || !clk.UTC.Equal(utc(c.wantUTC)) || clk.Offset != c.wantOff || clk.Known != c.wantKnown {
				t.Fatalf("clock %+v, want %s %v known=%v", clk, c.wantUTC, c.wantOff, c.wantKnown)
			}
			if got := clk.ToUTC(c.wall); !got.Equal(utc(c.wantLine)) {
				t.Errorf("line %v → %v, want %s", c.wall, got, c.wantLine)
			}
		})
	}
	if _, ok := parseDateFile([]byte("no date here\n"), true); ok {
		t.Error("a file without a date was read")
	}
}
