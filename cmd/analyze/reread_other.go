//go:build !unix

package main

// openNoBlock is 0 where O_NONBLOCK does not exist; rereadConfined's Stat
// before the open still refuses what is not a regular file.
const openNoBlock = 0
