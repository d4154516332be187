// Package podcheck compares podstatus.Compute with the upstream pod printer
// (k8s.io/kubernetes/pkg/printers/internalversion) on many generated pods.
// It is a module of its own so that the main module does not depend on
// k8s.io/kubernetes; run it with `cd tools/podcheck && go test ./...`.
//
// The printer changed in 1.22, 1.26, 1.28, 1.31 and 1.35 (podstatus.Version).
// TestAgainstUpstream checks the newest behaviour against this module's
// k8s.io/kubernetes; TestAgainstReleases builds the printer of every older
// boundary release from its own module under releases/ (each requires that
// release's k8s.io/kubernetes, whose k8s.io/api cannot share a build with the
// main module's) and compares it with podstatus.Compute at that release.
package podcheck
