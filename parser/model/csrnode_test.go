package model

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"testing"

	certificatesv1 "k8s.io/api/certificates/v1"
)

// TestCSRNode: the node of a kubelet CSR is read from its requester when the
// node itself asked (a renewal), else from the subject of the request (the
// bootstrap identity asked); a request for anything else names no node.
func TestCSRNode(t *testing.T) {
	request := func(cn string) []byte {
		key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		der, err := x509.CreateCertificateRequest(rand.Reader, &x509.CertificateRequest{Subject: pkix.Name{CommonName: cn, Organization: []string{"system:nodes"}}}, key)
		if err != nil {
			t.Fatal(err)
		}
		return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE REQUEST", Bytes: der})
	}
	for _, c := range []struct {
		name, user string
		req        []byte
		want       string
	}{
		{"renewal by the node", "system:node:worker-1", nil, "worker-1"},
		{"bootstrap, node in the subject", "system:serviceaccount:openshift-machine-config-operator:node-bootstrapper", request("system:node:worker-2.example.com"), "worker-2.example.com"},
		{"bootstrap token", "system:bootstrap:abc123", request("system:node:worker-3"), "worker-3"},
		{"another subject", "system:serviceaccount:ns:sa", request("my-client"), ""},
		{"no request kept", "system:serviceaccount:ns:sa", nil, ""},
		{"garbage request", "system:serviceaccount:ns:sa", []byte("not pem"), ""},
	} {
		csr := &certificatesv1.CertificateSigningRequest{Spec: certificatesv1.CertificateSigningRequestSpec{Username: c.user, Request: c.req}}
		if got := CSRNode(csr); got != c.want {
			t.Errorf("%s: CSRNode = %q, want %q", c.name, got, c.want)
		}
	}
}
