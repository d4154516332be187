// Package podcheck compares podstatus.Compute with the upstream pod printer
// (k8s.io/kubernetes/pkg/printers/internalversion) on many generated pods.
// It is a module of its own so that the main module does not depend on
// k8s.io/kubernetes; run it with `cd tools/podcheck && go test ./...`.
package podcheck
