#!/usr/bin/env python3
"""Writes the hwloc 2 XML files of the three example GPU nodes (lstopo's
format: what `lstopo --of xml` saves on such a node, with hwloc's NVML or
RSMI plugin). The nvidia-smi and rocm-smi text of the same nodes beside them
are written by hand; ctest checks that both give tmap the same distances and
that lstopo loads each XML.

    dgx-a100.xml  8 NVIDIA GPUs on NVSwitches, 2 packages of 64 cores (SMT 2),
                  a PCIe switch per 2 GPUs with their NIC (mlx5_0..3)
    nvlink4.xml   4 NVIDIA GPUs joined all to all by 4 NVLinks each, 1 package
                  of 64 cores in 4 NUMA nodes, each GPU with its NIC (cxi0..3)
    mi250x.xml    8 AMD GCDs (4 MI250X) on xGMI, 1 package of 64 cores in 4
                  NUMA nodes, a NIC per MI250X (cxi0..3)

Run: python3 examples/gpu/make_nodes.py examples/gpu
"""
import sys
from pathlib import Path


def cpuset(pus):
    """hwloc's bitmap text: 32-bit hex words, most significant first."""
    bits = 0
    for p in pus:
        bits |= 1 << p
    words = []
    while True:
        words.append(bits & 0xFFFFFFFF)
        bits >>= 32
        if bits == 0:
            break
    return ",".join(f"0x{w:08x}" for w in reversed(words))


class Node:
    def __init__(self, cores, smt, numa_count):
        self.cores, self.smt = cores, smt
        self.gp = 0
        self.lines = []
        self.numa_count = numa_count
        self.all_nodes = cpuset(range(numa_count))

    def next_gp(self):
        self.gp += 1
        return self.gp

    def pus_of_cores(self, cores):
        return sorted(c + k * self.cores for c in cores for k in range(self.smt))

    def sets(self, pus, nodes):
        c, n = cpuset(pus), cpuset(nodes)
        return f'cpuset="{c}" complete_cpuset="{c}" nodeset="{n}" complete_nodeset="{n}"'

    def add(self, depth, text):
        self.lines.append("  " * depth + text)

    def cores_block(self, depth, cores, numa):
        for c in cores:
            pus = self.pus_of_cores([c])
            self.add(depth, f'<object type="Core" os_index="{c}" {self.sets(pus, [numa])} gp_index="{self.next_gp()}">')
            for p in pus:
                self.add(depth + 1,
                         f'<object type="PU" os_index="{p}" {self.sets([p], [numa])} gp_index="{self.next_gp()}"/>')
            self.add(depth, "</object>")

    def numa(self, depth, index, cores):
        self.add(depth, f'<object type="NUMANode" os_index="{index}" {self.sets(self.pus_of_cores(cores), [index])} '
                        f'gp_index="{self.next_gp()}" local_memory="68719476736"/>')

    def cpu_object(self, depth, opening, cores, numa):
        """A CPU-side object (`opening`: its tag) holding NUMA node `numa`
        and `cores`; closed by the caller after what else it holds."""
        self.add(depth, opening)
        self.numa(depth + 1, numa, cores)
        self.cores_block(depth + 1, cores, numa)

    def switch(self, depth, domain_bus, devices):
        """A host bridge, a PCIe switch under it, and a port per device:
        devices are (kind, name, osdev_type, subtype, vendor:device)."""
        bus = domain_bus
        self.add(depth, f'<object type="Bridge" gp_index="{self.next_gp()}" bridge_type="0-1" depth="0" '
                        f'bridge_pci="0000:[{bus:02x}-{bus + 15:02x}]">')
        self.add(depth + 1, f'<object type="Bridge" gp_index="{self.next_gp()}" bridge_type="1-1" depth="1" '
                            f'bridge_pci="0000:[{bus + 1:02x}-{bus + 15:02x}]" pci_busid="0000:{bus:02x}:01.0" '
                            f'pci_type="0604 [1000:c010] [1000:a064] b0 00" pci_link_speed="31.507692">')
        names = {}
        for k, (kind, name, osdev_type, subtype, ids) in enumerate(devices):
            port = bus + 2 + k
            self.add(depth + 2, f'<object type="Bridge" gp_index="{self.next_gp()}" bridge_type="1-1" depth="2" '
                                f'bridge_pci="0000:[{port:02x}-{port:02x}]" pci_busid="0000:{bus + 1:02x}:{k:02x}.0" '
                                f'pci_type="0604 [1000:c010] [1000:a064] b0 00" pci_link_speed="31.507692">')
            pci_class = {"gpu": "0302", "nic": "0207", "switch": "0680"}[kind]
            dev_gp = self.next_gp()
            sub = f' subtype="{subtype}"' if kind == "switch" else ""
            end = "/>" if kind == "switch" else ">"
            self.add(depth + 3, f'<object type="PCIDev" gp_index="{dev_gp}"{sub} pci_busid="0000:{port:02x}:00.0" '
                                f'pci_type="{pci_class} [{ids}] [{ids}] a1 00" pci_link_speed="31.507692"{end}')
            if kind == "switch":
                names[name] = ("PCIDev", dev_gp)
            else:
                os_gp = self.next_gp()
                self.add(depth + 4, f'<object type="OSDev" gp_index="{os_gp}" name="{name}" subtype="{subtype}" '
                                    f'osdev_type="{osdev_type}"/>')
                names[name] = ("OSDev", os_gp)
                self.add(depth + 3, "</object>")
            self.add(depth + 2, "</object>")
        self.add(depth + 1, "</object>")
        self.add(depth, "</object>")
        return names

    def text(self, root_pus, distances):
        head = ['<?xml version="1.0" encoding="UTF-8"?>', '<!DOCTYPE topology SYSTEM "hwloc2.dtd">',
                '<topology version="2.0">']
        nodes = list(range(self.numa_count))
        root = (f'  <object type="Machine" os_index="0" {self.sets(root_pus, nodes)} '
                f'allowed_cpuset="{cpuset(root_pus)}" allowed_nodeset="{cpuset(nodes)}" gp_index="{self.next_gp()}">')
        return "\n".join(head + [root] + ["    " + line for line in self.lines] + ["  </object>"] + distances +
                         ["</topology>", ""])


GPU_OSDEV, NET_OSDEV, OPENFABRICS_OSDEV = 1, 2, 3


def matrix(name, kind, objects, value, hetero=False):
    """An hwloc distances matrix: `objects` (type, gp), value(a, b)."""
    n = len(objects)
    values = " ".join(str(value(a, b)) for a in range(n) for b in range(n))
    if hetero:
        indexes = " ".join(f"{t}:{gp}" for t, gp in objects)
        return [f'  <distances2hetero nbobjs="{n}" kind="{kind}" name="{name}">',
                f'    <indexes length="{len(indexes) + 1}">{indexes} </indexes>',
                f'    <u64values length="{len(values) + 1}">{values} </u64values>', '  </distances2hetero>']
    indexes = " ".join(str(gp) for _, gp in objects)
    return [f'  <distances2 type="OSDev" nbobjs="{n}" kind="{kind}" name="{name}" indexing="gp">',
            f'    <indexes length="{len(indexes) + 1}">{indexes} </indexes>',
            f'    <u64values length="{len(values) + 1}">{values} </u64values>', '  </distances2>']


def dgx_a100():
    node = Node(cores=128, smt=2, numa_count=2)
    names = {}
    for package in range(2):
        cores = range(64 * package, 64 * package + 64)
        opening = (f'<object type="Package" os_index="{package}" {node.sets(node.pus_of_cores(cores), [package])} '
                   f'gp_index="{node.next_gp()}">')
        node.cpu_object(0, opening, cores, package)
        for s in range(2):
            pair = 4 * package + 2 * s
            nic = 2 * package + s
            names |= node.switch(1, 0x10 + 0x40 * package + 0x10 * s, [
                ("gpu", f"nvml{pair}", GPU_OSDEV, "NVML", "10de:20b0"),
                ("gpu", f"nvml{pair + 1}", GPU_OSDEV, "NVML", "10de:20b0"),
                ("nic", f"mlx5_{nic}", OPENFABRICS_OSDEV, "OpenFabrics", "15b3:101b")])
        if package == 1:
            names |= node.switch(1, 0xc0, [("switch", f"nvswitch{k}", 0, "NVSwitch", "10de:1af1") for k in range(2)])
        node.add(0, "</object>")
    objects = [names[f"nvml{g}"] for g in range(8)] + [names[f"nvswitch{k}"] for k in range(2)]
    # Each GPU's 12 NVLinks (25 GB/s each way) spread over the switches.
    links = matrix("NVLinkBandwidth", 25, objects,
                   lambda a, b: 0 if a == b or (a >= 8 and b >= 8) else (150000 if a >= 8 or b >= 8 else 0),
                   hetero=True)
    return node.text(range(256), links)


def numa_package(node, nodes_of, attach):
    """One package of 64 cores in 4 NUMA groups of 16; attach(numa) puts
    the PCIe switch of that NUMA node."""
    names = {}
    node.add(0, f'<object type="Package" os_index="0" {node.sets(range(128), range(4))} gp_index="{node.next_gp()}">')
    for numa in range(4):
        cores = range(16 * numa, 16 * numa + 16)
        node.cpu_object(1, f'<object type="Group" {node.sets(node.pus_of_cores(cores), [numa])} '
                           f'gp_index="{node.next_gp()}" kind="1000" subkind="0">', cores, numa)
        names |= attach(numa)
        node.add(1, "</object>")
    node.add(0, "</object>")
    return names


def nvlink4():
    node = Node(cores=64, smt=2, numa_count=4)
    names = numa_package(node, 4, lambda numa: node.switch(2, 0x10 * (numa + 1), [
        ("gpu", f"nvml{3 - numa}", GPU_OSDEV, "NVML", "10de:20b0"),
        ("nic", f"cxi{3 - numa}", OPENFABRICS_OSDEV, "Slingshot", "17db:0501")]))
    objects = [names[f"nvml{g}"] for g in range(4)]
    links = matrix("NVLinkBandwidth", 9, objects, lambda a, b: 0 if a == b else 100000)
    return node.text(range(128), links)


# Frontier's wiring: MI250X m sits on NUMA node MI250X_NUMA[m].
MI250X_NUMA = [3, 1, 0, 2]


def mi250x():
    node = Node(cores=64, smt=2, numa_count=4)
    card_of_numa = {numa: m for m, numa in enumerate(MI250X_NUMA)}
    names = numa_package(node, 4, lambda numa: node.switch(2, 0x10 * (numa + 1), [
        ("gpu", f"rsmi{2 * card_of_numa[numa]}", GPU_OSDEV, "RSMI", "1002:7408"),
        ("gpu", f"rsmi{2 * card_of_numa[numa] + 1}", GPU_OSDEV, "RSMI", "1002:7408"),
        ("nic", f"cxi{card_of_numa[numa]}", OPENFABRICS_OSDEV, "Slingshot", "17db:0501")]))
    objects = [names[f"rsmi{g}"] for g in range(8)]
    # The two dies of one MI250X: 4 links; dies of two cards: 1 or 2.
    links = matrix("XGMIBandwidth", 9, objects,
                   lambda a, b: 0 if a == b else 200000 if a // 2 == b // 2 else 100000 if (a + b) % 2 else 50000)
    return node.text(range(128), links)


def main():
    out = Path(sys.argv[1] if len(sys.argv) > 1 else ".")
    for name, make in (("dgx-a100.xml", dgx_a100), ("nvlink4.xml", nvlink4), ("mi250x.xml", mi250x)):
        (out / name).write_text(make())


if __name__ == "__main__":
    main()
