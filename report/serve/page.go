package serve

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// DefaultAnswerBytes is the default byte budget of one answer: the JSON of
// its items, before the SDK's framing. An answer over it is cut between
// items and carries a Next cursor.
const DefaultAnswerBytes = 16 << 10

// MaxLimit bounds the items one answer may ask for.
const MaxLimit = 500

// cursor is a page position: the index of the first item of the page. On
// the wire it is "p<index>" (opaque to the caller, but deterministic: the
// same question and cursor give the same page).
func parseCursor(s string) (int, error) {
	if s == "" {
		return 0, nil
	}
	digits := strings.TrimPrefix(s, "p")
	n, err := strconv.Atoi(digits)
	if !strings.HasPrefix(s, "p") || err != nil || n < 0 || len(s) > 12 || strings.Trim(digits, "0123456789") != "" {
		return 0, fmt.Errorf("cursor %q is not one this server gave: pass the \"next\" value of an earlier answer, or none", clip(s, 40))
	}
	return n, nil
}

func cursorAt(i int) string { return "p" + strconv.Itoa(i) }

// page returns the items of all from the cursor's position, at most limit
// (MaxLimit when limit ≤ 0) and as many as fit budget bytes of JSON (at
// least one), with the cursor of the next page ("" when none is left).
func page[T any](all []T, cursor string, limit, budget int) ([]T, string, error) {
	start, err := parseCursor(cursor)
	if err != nil {
		return nil, "", err
	}
	if start > len(all) {
		return nil, "", fmt.Errorf("cursor %q is past the end (%d items)", cursor, len(all))
	}
	if limit < 0 {
		return nil, "", fmt.Errorf("limit %d: give a count of at least 1 (0 or none: as many as fit)", limit)
	}
	if limit == 0 || limit > MaxLimit {
		limit = MaxLimit
	}
	used := 0
	end := start
	for end < len(all) && end-start < limit {
		b, err := json.Marshal(all[end])
		if err != nil {
			return nil, "", err
		}
		if end > start && used+len(b)+1 > budget {
			break
		}
		used += len(b) + 1
		end++
	}
	next := ""
	if end < len(all) {
		next = cursorAt(end)
	}
	return all[start:end], next, nil
}

// clip shortens s to at most n bytes on a rune boundary, for quoting an
// argument back in an error.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && n < len(s) && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}
