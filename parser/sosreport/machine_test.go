package sosreport

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mgtriage/mgtriage/parser/model"
)

func TestMachineFacts(t *testing.T) {
	const dmidecode = "# dmidecode 3.5\nGetting SMBIOS data from sysfs.\n\nHandle 0x0000, DMI type 0, 26 bytes\nBIOS Information\n\tVendor: Example\n\tUUID: 11111111-2222-3333-4444-555555555555\n\nHandle 0x0001, DMI type 1, 27 bytes\nSystem Information\n\tManufacturer: Example\n\tProduct Name: Server\n\tUUID: C50AD37A-3CBA-4D68-AB01-A5C198D1EB3F\n\tWake-up Type: Power Switch\n"
	tests := []struct {
		name  string
		files map[string]string
		want  model.MachineFacts
	}{
		{"machine-id and boot_id files", map[string]string{
			"sosreport-w0/etc/machine-id":                       "6394e6ffd38647479b66709a7220f173\n",
			"sosreport-w0/proc/sys/kernel/random/boot_id":       "3d2edd62-689f-4876-9265-1bfea4109921\n",
			"sosreport-w0/sys/class/dmi/id/product_uuid":        "c50ad37a-3cba-4d68-ab01-a5c198d1eb3f\n",
			"sosreport-w0/sos_commands/hardware/dmidecode":      dmidecode,
			"sosreport-w0/sos_commands/host/hostnamectl_status": "  Machine ID: ffffffffffffffffffffffffffffffff\n",
		}, model.MachineFacts{MachineID: "6394e6ffd38647479b66709a7220f173", SystemUUID: "c50ad37a3cba4d68ab01a5c198d1eb3f", BootID: "3d2edd62689f487692651bfea4109921"}},
		{"hostnamectl and dmidecode only: the System Information UUID, not the BIOS block's", map[string]string{
			"sosreport-w0/sos_commands/host/hostnamectl_status": " Static hostname: w0\n      Machine ID: 6394E6FFD38647479B66709A7220F173\n         Boot ID: 3d2edd62689f487692651bfea4109921\n",
			"sosreport-w0/sos_commands/hardware/dmidecode":      dmidecode,
		}, model.MachineFacts{MachineID: "6394e6ffd38647479b66709a7220f173", SystemUUID: "c50ad37a3cba4d68ab01a5c198d1eb3f", BootID: "3d2edd62689f487692651bfea4109921"}},
		{"hostile content is no identifier", map[string]string{
			"sosreport-w0/etc/machine-id":                  "$(reboot)\n",
			"sosreport-w0/proc/sys/kernel/random/boot_id":  "",
			"sosreport-w0/sos_commands/hardware/dmidecode": "System Information\n\tUUID: " + string(make([]byte, 100)) + "\n",
		}, model.MachineFacts{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := NewReader(nil)
			// machine-id files win over hostnamectl: read them in a fixed order.
			for _, p := range []string{"etc/machine-id", "proc/sys/kernel/random/boot_id", "sys/class/dmi/id/product_uuid", "sos_commands/hardware/dmidecode", "sos_commands/host/hostnamectl_status"} {
				data, ok := tt.files["sosreport-w0/"+p]
				if !ok {
					continue
				}
				m := Classify("sosreport-w0/" + p)
				if m.Kind != Machine || m.Root != "sosreport-w0/" {
					t.Fatalf("Classify(%s) = %+v", p, m)
				}
				if err := r.Read("sosreport-w0/"+p, "sosreport-w0", m, []byte(data)); err != nil {
					t.Fatal(err)
				}
			}
			if diff := cmp.Diff(tt.want, r.Machine("sosreport-w0")); diff != "" {
				t.Errorf("Machine (-want +got):\n%s", diff)
			}
		})
	}
	if m := Classify("namespaces/etc/core/pods.yaml"); m.Kind == Machine {
		t.Errorf("an object file classified as a machine fact")
	}
}

func TestCompareMachineFacts(t *testing.T) {
	node := model.MachineFacts{MachineID: "6394e6ffd38647479b66709a7220f173", SystemUUID: "C50AD37A-3CBA-4D68-AB01-A5C198D1EB3F", BootID: "3d2edd62-689f-4876-9265-1bfea4109921"}
	for _, tt := range []struct {
		name         string
		host         model.MachineFacts
		same, differ string
	}{
		{"same machine-id", model.MachineFacts{MachineID: "6394E6FFD38647479B66709A7220F173"}, "machine-id", ""},
		{"system UUID in the other case", model.MachineFacts{SystemUUID: "c50ad37a-3cba-4d68-ab01-a5c198d1eb3f"}, "system UUID", ""},
		{"rebooted: another boot ID proves nothing", model.MachineFacts{BootID: "00000000-0000-0000-0000-000000000000"}, "", ""},
		{"another machine-id", model.MachineFacts{MachineID: "0123456789abcdef0123456789abcdef"}, "", "machine-id"},
		{"nothing to compare", model.MachineFacts{}, "", ""},
	} {
		same, differ := tt.host.Compare(node)
		if same != tt.same || differ != tt.differ {
			t.Errorf("%s: Compare = %q, %q; want %q, %q", tt.name, same, differ, tt.same, tt.differ)
		}
	}
}
