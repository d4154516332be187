//go:build race

package main

// raceEnabled: the race detector reserves terabytes of address space, so no
// subprocess can run under an address-space limit.
const raceEnabled = true
