package serve

import "sync"

// MaxCachedLinesBytes bounds the files a Server keeps decompressed and
// split into lines between answers (the most recently used first), so
// that questions about one file (an object, then its source lines) do not
// decompress it each time.
const MaxCachedLinesBytes = 32 << 20

// linesCache holds the lines of the files read most recently, within
// MaxCachedLinesBytes. Safe for concurrent use.
type linesCache struct {
	mu      sync.Mutex
	entries []cachedLines // most recent last
	bytes   int
}

type cachedLines struct {
	path, origin string
	lines        []string
	size         int
}

func (c *linesCache) get(path string) ([]string, string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, e := range c.entries {
		if e.path == path {
			c.entries = append(append(c.entries[:i:i], c.entries[i+1:]...), e)
			return e.lines, e.origin, true
		}
	}
	return nil, "", false
}

func (c *linesCache) put(path string, lines []string, origin string, size int) {
	if size > MaxCachedLinesBytes/2 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.entries = append(c.entries, cachedLines{path, origin, lines, size})
	c.bytes += size
	for c.bytes > MaxCachedLinesBytes && len(c.entries) > 1 {
		c.bytes -= c.entries[0].size
		c.entries = c.entries[1:]
	}
}
