package rules

import "testing"

// TestReadOnlyPathJoin: readOnlyPath decides when the refused path lies under
// a read-only mount or a read-only root filesystem, and rules the signature
// out when it lies on a writable mount.
func TestReadOnlyPathJoin(t *testing.T) {
	testDeciderTable(t, "readOnlyPath", []deciderCase{
		{Signature: "read-only-mount-write", Case: "HOME is the mount point of a ConfigMap (read-only), the app creates its cache there", Decided: true, CauseHas: []string{"/root/.config", "readOnly: true"}},
		{Signature: "read-only-mount-write", Case: "a read-only root filesystem and no volume where a Python app writes", Decided: true, CauseHas: []string{"readOnlyRootFilesystem: true", "/app/cache/index.db"}},
		{Signature: "read-only-mount-write", Case: "near miss, EROFS on a writable claim (the storage is read-only, not the spec)", RuledOut: true},
	})
}
