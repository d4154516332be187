package model

import (
	"errors"
	"sort"
	"sync"

	"github.com/klauspost/compress/zstd"
)

// KeptFiles holds the bytes of the gather's object files (the YAML or JSON
// lists and per-object files the reader decoded: pods, events, nodes and
// every other kind) compressed with zstd, within a budget of compressed
// bytes, so that a reader of the analysed gather (analyze serve) can quote
// any object and any line of those files after the one pass, without
// reading the input again. Files of Secrets and ConfigMaps are never kept:
// their values never leave the tool. A file that would go over the budget is
// not kept, and counted (Stats). The zero value is not usable; use
// NewKeptFiles. Safe for concurrent use.
type KeptFiles struct {
	mu      sync.Mutex
	budget  int64
	packed  int64
	raw     int64
	files   map[string][]byte
	skipped int
	enc     *zstd.Encoder
	dec     *zstd.Decoder
}

// KeptFilesStats says what KeptFiles holds: Files kept, their Bytes as
// read and Packed compressed, and Skipped, the files left out because the
// budget (Budget, compressed bytes) was reached.
type KeptFilesStats struct {
	Files   int   `json:"files"`
	Bytes   int64 `json:"bytes"`
	Packed  int64 `json:"packedBytes"`
	Budget  int64 `json:"budgetBytes"`
	Skipped int   `json:"skipped"`
}

// MaxKeptFileBytes bounds one kept file's bytes as read: a larger file is
// never kept (it is counted as skipped), so that one answer never
// decompresses more than this.
const MaxKeptFileBytes = 256 << 20

// NewKeptFiles returns an empty KeptFiles that keeps at most budget
// compressed bytes (budget ≤ 0 keeps nothing).
func NewKeptFiles(budget int64) *KeptFiles {
	enc, _ := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithEncoderConcurrency(1), zstd.WithLowerEncoderMem(true))
	dec, _ := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(MaxKeptFileBytes+1))
	return &KeptFiles{budget: budget, files: map[string][]byte{}, enc: enc, dec: dec}
}

// Keep compresses data, the whole content of the member at path (relative
// to the input, as Source.Path), and keeps it when the budget allows; it
// reports whether it did. A second Keep of the same path replaces nothing.
func (k *KeptFiles) Keep(path string, data []byte) bool {
	if k == nil || len(data) > MaxKeptFileBytes {
		k.skip()
		return false
	}
	packed := k.enc.EncodeAll(data, make([]byte, 0, len(data)/8+64))
	k.mu.Lock()
	defer k.mu.Unlock()
	if _, dup := k.files[path]; dup {
		return true
	}
	if k.packed+int64(len(packed)) > k.budget {
		k.skipped++
		return false
	}
	k.files[path] = packed
	k.packed += int64(len(packed))
	k.raw += int64(len(data))
	return true
}

func (k *KeptFiles) skip() {
	if k == nil {
		return
	}
	k.mu.Lock()
	k.skipped++
	k.mu.Unlock()
}

// ErrNotKept is Read's error for a path whose bytes are not kept.
var ErrNotKept = errors.New("not kept")

// Read returns the bytes kept for path, decompressed (a new slice), or
// ErrNotKept.
func (k *KeptFiles) Read(path string) ([]byte, error) {
	if k == nil {
		return nil, ErrNotKept
	}
	k.mu.Lock()
	packed, ok := k.files[path]
	k.mu.Unlock()
	if !ok {
		return nil, ErrNotKept
	}
	return k.dec.DecodeAll(packed, nil)
}

// Has reports whether path's bytes are kept.
func (k *KeptFiles) Has(path string) bool {
	if k == nil {
		return false
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	_, ok := k.files[path]
	return ok
}

// Paths lists the kept paths, sorted.
func (k *KeptFiles) Paths() []string {
	if k == nil {
		return nil
	}
	k.mu.Lock()
	out := make([]string, 0, len(k.files))
	for p := range k.files {
		out = append(out, p)
	}
	k.mu.Unlock()
	sort.Strings(out)
	return out
}

// Stats says what is kept.
func (k *KeptFiles) Stats() KeptFilesStats {
	if k == nil {
		return KeptFilesStats{}
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	return KeptFilesStats{Files: len(k.files), Bytes: k.raw, Packed: k.packed, Budget: k.budget, Skipped: k.skipped}
}
