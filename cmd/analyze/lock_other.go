//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package main

import "os"

// lockFile is the fallback where flock(2) is missing: it always succeeds,
// so two runs on one -o are not kept apart there (each still replaces the
// set as one, through its own temporary files).
func lockFile(*os.File) (bool, error) { return true, nil }

// oNoFollow is 0 where O_NOFOLLOW is missing (the callers Lstat first).
const oNoFollow = 0
