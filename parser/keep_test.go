package parser

import (
	"testing"

	"github.com/mgtriage/mgtriage/parser/model"
)

func TestLineFilter(t *testing.T) {
	f := newLineFilter([]model.Literal{{Text: "Waiting for volume"}, {Text: "slow disk", Fold: true}, {Text: "ab"}})
	var scratch []byte
	tests := []struct {
		line string
		want bool
	}{
		{`I1120 09:20:00.000100 2150 volume_manager.go:401] "Waiting for volume attachment" pod="shop/cart"`, true},
		{`I1120 09:20:00.000100 2150 volume_manager.go:401] "waiting for volume attachment" pod="shop/cart"`, false},
		{`time="2026-11-20T09:20:00Z" level=info msg="SLOW Disk on /var/lib/containers"`, true},
		{`I1120 09:20:00.000100 2150 kubelet.go:1] "abc"`, false}, // literals under 3 bytes are dropped
		{"", false},
	}
	for _, tt := range tests {
		if got := f.match([]byte(tt.line), &scratch); got != tt.want {
			t.Errorf("match(%q) = %v, want %v", tt.line, got, tt.want)
		}
	}
	var none *lineFilter
	if none.match([]byte("Waiting for volume"), &scratch) || newLineFilter(nil) != nil {
		t.Error("a nil filter keeps nothing more")
	}
}
