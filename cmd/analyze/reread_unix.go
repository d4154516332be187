//go:build unix

package main

import "syscall"

// openNoBlock is added to the flags rereadConfined opens with, so that
// opening a FIFO or device that replaced a file after the check does not
// wait for a writer.
const openNoBlock = syscall.O_NONBLOCK
