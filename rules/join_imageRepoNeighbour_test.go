package rules

import "testing"

// TestImageRepoNeighbourJoin: the imageRepoNeighbour join decides on the rows
// marked Decided (with the deciding words in its cause) and stays undecided
// on the others, where the rule's matcher still hits.
func TestImageRepoNeighbourJoin(t *testing.T) {
	testJoinTable(t, "imageRepoNeighbour", []joinCase{
		{Rule: "image-pull-failed", Case: "Docker's pull access denied for a misspelt Docker Hub account; another pod pulls from the right one", Decided: true, CauseHas: []string{"account acmelab, a near spelling of acme-lab", "pod shop/api-0 runs acmelab/api"}},
		{Rule: "image-pull-failed", Case: "containerd's pull access denied, no near repository in the gather", Decided: false},
	})
}

// TestRepoName: image references as Docker's messages name their repository.
func TestRepoName(t *testing.T) {
	for in, want := range map[string]string{
		"nginx":                               "nginx",
		"docker.io/library/nginx:1.25":        "nginx",
		"acme/web:2@sha256:abc":               "acme/web",
		"registry.example.com:5000/a/b:v1":    "registry.example.com:5000/a/b",
		"docker-pullable://acme/api@sha256:1": "docker-pullable://acme/api",
	} {
		if got := repoName(in); got != want {
			t.Errorf("repoName(%q) = %q, want %q", in, got, want)
		}
	}
}
