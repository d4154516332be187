package rules

// packsReference is the section of the rule reference (docs/rules.md) on
// rule packs, which rules/pack reads.
const packsReference = "## Rule packs\n\n" +
	"A pack is rule files with their tests, in a folder, a `.tar.gz` or an OCI image layout, given with `--rules PACK`. " +
	"Its `pack.yaml` holds `name` (lower-case words joined by `-`), `version` (semver), `mgtriage` (the semver range of mgtriage " +
	"versions it needs), `schemaVersion` (the rule table schema of its rule files, today 1), `description`, `sources` (the " +
	"public reports it was learned from), optionally `rules` (its rule files; default every `rules/*.yaml`), and `tests`: per " +
	"rule, `fires` (gathers, folders of the pack, on which it must fire, each with the exact `contains` words its finding's " +
	"title, hint, remediation or evidence holds) and `quiet` (gathers on which it must not fire). Every key of a rule file " +
	"(a rule's `where:` included) is read as from `--rules`; a pack's rule errors cite `PACK:rules/FILE:LINE`.\n\n" +
	"- `analyze rules test PACK [--junit FILE]` analyses each test gather as `analyze` does with the pack over the built-in " +
	"table; exit 1 when a test fails.\n" +
	"- `analyze rules pack DIR -o FILE` writes the deterministic `.tar.gz` (sorted members, fixed times and owners) and prints " +
	"`sha256:<hex>  FILE`, the digest reports name.\n" +
	"- `analyze rules manifest DIR` prints a folder pack's manifest (`<sha256>  <path>` per file, sorted by path), what its " +
	"`pack.minisig` signs.\n" +
	"- Signatures are minisign's: `<archive>.minisig` over the archive's bytes, `pack.minisig` in a folder over its manifest, " +
	"a layer titled `*.minisig` in an OCI layout over the pack's layer. `--trust KEY|DIR` (repeatable) requires a signature " +
	"by one of those keys, checked before any rule is read; without it an unsigned pack loads with a warning on stderr and in " +
	"the report's header; a signature that does not verify (with a trusted key, or the key shipped as `<archive>.pub` or " +
	"`pack.pub`) always refuses the pack (exit 2).\n" +
	"- A pack archive is read in memory within limits (64 MiB stored, 128 MiB of files, 16 MiB per file, 20,000 members); " +
	"a link, a special file, an absolute path or `..` refuses it.\n" +
	"- An example pack, not embedded in the binary: `rules/packs/odf` (OpenShift Data Foundation), three rules in YAML and " +
	"CEL that join a CephCluster's or StorageCluster's status with a failing OSD, monitor or application pod, with gathers " +
	"in odf-must-gather's layout that make each fire and stay quiet; `analyze rules test rules/packs/odf` runs them.\n\n"
