package mustgather

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestAlertLines checks that an alert of a rules dump is cited at the line
// of the annotation its message comes from (summary, else description, else
// message), else at the alert's first line.
func TestAlertLines(t *testing.T) {
	doc := `{
  "status": "success",
  "data": {
    "groups": [
      {
        "name": "kubernetes-apps",
        "rules": [
          {"name": "r", "type": "recording"},
          {
            "name": "KubePodCrashLooping",
            "type": "alerting",
            "alerts": [
              {
                "labels": {"pod": "catalog-1"},
                "annotations": {
                  "description": "Pod shop/catalog-1 is crash looping."
                },
                "state": "firing"
              },
              {"labels": {}, "annotations": {}, "state": "pending"}
            ]
          }
        ]
      }
    ]
  }
}`
	got := alertLines([]byte(doc))
	want := map[alertAt]int{
		{1, 2, 1, ""}: 13, {1, 2, 1, "description"}: 16, {1, 2, 2, ""}: 20,
	}
	if d := cmp.Diff(want, got, cmp.AllowUnexported(alertAt{})); d != "" {
		t.Errorf("alert lines (-want +got):\n%s", d)
	}
}
