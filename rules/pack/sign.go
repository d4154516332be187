package pack

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"aead.dev/minisign"
)

// Keys are the minisign public keys a pack may be signed with (--trust).
type Keys struct {
	keys map[uint64]minisign.PublicKey
	// From lists the files the keys were read from.
	From []string
}

// Len is the number of keys.
func (k *Keys) Len() int {
	if k == nil {
		return 0
	}
	return len(k.keys)
}

// LoadKeys reads minisign public key files (as `minisign -G` writes them:
// an untrusted comment line, then the base64 key): each path is a key file
// or a folder whose *.pub files are keys. A path that holds no key is an
// error.
func LoadKeys(paths []string) (*Keys, error) {
	k := &Keys{keys: map[uint64]minisign.PublicKey{}}
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil {
			return nil, fmt.Errorf("--trust %s: %w", p, err)
		}
		files := []string{p}
		if fi.IsDir() {
			files, _ = filepath.Glob(filepath.Join(p, "*.pub"))
			if len(files) == 0 {
				return nil, fmt.Errorf("--trust %s: the folder holds no *.pub key", p)
			}
			sort.Strings(files)
		}
		for _, f := range files {
			b, err := readFile(f, sigLimit, "a public key is")
			if err != nil {
				return nil, fmt.Errorf("--trust %s: %w", f, err)
			}
			key, err := parseKey(b)
			if err != nil {
				return nil, fmt.Errorf("--trust %s: not a minisign public key: %v", f, err)
			}
			k.keys[key.ID()] = key
			k.From = append(k.From, f)
		}
	}
	return k, nil
}

// parseKey reads a minisign public key: the file's last non-empty line.
func parseKey(b []byte) (minisign.PublicKey, error) {
	var key minisign.PublicKey
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	err := key.UnmarshalText([]byte(strings.TrimSpace(lines[len(lines)-1])))
	return key, err
}

// keyID is how minisign prints a key id.
func keyID(id uint64) string { return fmt.Sprintf("%016X", id) }

// verify checks r's signature before anything of the pack is decoded:
//
//   - with trusted keys, the pack must be signed by one of them and the
//     signature must verify, else it is refused;
//   - without, an unsigned pack loads with a warning; a signed one is
//     checked against the key shipped beside it (pack.pub, <archive>.pub)
//     and refused when it does not verify (tampered), or loads with a
//     warning that no trusted key vouched for it; with no key shipped its
//     signature cannot be checked and it loads with a warning.
//
// A signature that cannot be parsed is always refused.
func verify(pk *Pack, r *raw, trust *Keys) error {
	refuse := func(format string, args ...any) error {
		return &RefusedError{Path: pk.Path, Why: fmt.Sprintf(format, args...)}
	}
	sigName := pk.Path + sigSuffix
	switch r.form {
	case FormFolder:
		sigName = filepath.Join(pk.Path, SignatureFile)
	case FormOCI:
		sigName = "(the layout's *" + sigSuffix + " layer)"
	}
	if r.signature == nil {
		if trust.Len() > 0 {
			return refuse("it is not signed (no %s), and --trust accepts only packs signed by a trusted key", sigName)
		}
		pk.Warning = "not signed; its rules were used unchecked (sign it, and pass --trust KEY to require signed packs)"
		return nil
	}
	var sig minisign.Signature
	if err := sig.UnmarshalText(r.signature); err != nil {
		return refuse("its signature %s cannot be read: %v", sigName, err)
	}
	pk.KeyID = keyID(sig.KeyID)
	if trust.Len() > 0 {
		key, ok := trust.keys[sig.KeyID]
		if !ok {
			return refuse("it is signed by key %s, which is not among the trusted keys (%s)", pk.KeyID, strings.Join(trust.From, ", "))
		}
		if !minisign.Verify(key, r.signed, r.signature) {
			return refuse("its signature %s does not verify with trusted key %s: the pack was changed after signing, or the signature belongs to another pack", sigName, pk.KeyID)
		}
		pk.Signed, pk.Trusted = true, true
		return nil
	}
	if r.shipped == nil {
		pk.Warning = fmt.Sprintf("signed by key %s, not checked (no --trust key); its rules were used unchecked", pk.KeyID)
		return nil
	}
	key, err := parseKey(r.shipped)
	if err != nil {
		return refuse("the public key shipped with it cannot be read: %v", err)
	}
	if key.ID() != sig.KeyID {
		return refuse("its signature %s names key %s, but the key shipped with it is %s", sigName, pk.KeyID, keyID(key.ID()))
	}
	if !minisign.Verify(key, r.signed, r.signature) {
		return refuse("its signature %s does not verify with key %s: the pack was changed after signing", sigName, pk.KeyID)
	}
	pk.Signed = true
	pk.Warning = fmt.Sprintf("signed by key %s, intact, but no --trust key vouches for it", pk.KeyID)
	return nil
}
