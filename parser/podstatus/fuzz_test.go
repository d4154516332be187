package podstatus

import (
	"testing"
	"time"
)

func FuzzParseBackOffMessage(f *testing.F) {
	for _, s := range []string{"back-off 5m0s restarting failed container=app pod=x", "back-off 2m40s restarting failed container", "back-off 1h2m3.5s restarting failed container",
		"back-off 99999999999999999999h restarting failed container", "back-off 10ms restarting failed container", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, msg string) {
		if d, ok := ParseBackOffMessage(msg); ok && d <= 0 {
			t.Fatalf("ParseBackOffMessage(%q) = %v", msg, d)
		}
		_ = ExitMeaning(int32(len(msg))-128, int32(len(msg)%40), msg)
		_ = Since(time.Unix(int64(len(msg))*1e9, 0), time.Time{})
	})
}
