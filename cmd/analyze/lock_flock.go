//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package main

import (
	"errors"
	"os"
	"syscall"
)

// lockFile takes an exclusive flock(2) on f without waiting: ok is false
// when another open file holds it. The lock ends when f is closed or the
// process ends, however it ends, so a run that is gone never holds it.
func lockFile(f *os.File) (ok bool, err error) {
	err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) || errors.Is(err, syscall.EAGAIN) {
		return false, nil
	}
	return err == nil, err
}

// oNoFollow makes an open fail on a symbolic link rather than follow it.
const oNoFollow = syscall.O_NOFOLLOW
