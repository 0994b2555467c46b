// What libhwloc is given is checked first, in-process (issue 19: no fork in
// the library). Each class of input that crashed or hung libhwloc 2.9 in
// fuzzing is refused with a message, and good XML loads as before.
#include <gtest/gtest.h>
#include <libxml/globals.h>
#include <libxml/xmlerror.h>

#include <string>

#include "tmap/error.hpp"
#include "tmap/host_layout.hpp"
#include "topology/hwloc_input.hpp"
#include "topology/hwloc_tree.hpp"

namespace {

/// A two-core machine as lstopo writes it, with `change` applied to the
/// second PU's attributes (or to the whole text by the caller).
std::string machine(const std::string& second_pu = R"(os_index="1" cpuset="0x00000002" complete_cpuset="0x00000002")") {
  return R"(<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE topology SYSTEM "hwloc2.dtd">
<topology version="2.0">
  <object type="Machine" os_index="0" cpuset="0x00000003" complete_cpuset="0x00000003" allowed_cpuset="0x00000003" nodeset="0x00000001" complete_nodeset="0x00000001" allowed_nodeset="0x00000001" gp_index="1">
    <info name="HostName" value="box7"/>
    <object type="Package" os_index="0" cpuset="0x00000003" complete_cpuset="0x00000003" nodeset="0x00000001" complete_nodeset="0x00000001" gp_index="2">
      <object type="NUMANode" os_index="0" cpuset="0x00000003" complete_cpuset="0x00000003" nodeset="0x00000001" complete_nodeset="0x00000001" gp_index="7" local_memory="1000000"/>
      <object type="Core" os_index="0" cpuset="0x00000001" complete_cpuset="0x00000001" nodeset="0x00000001" complete_nodeset="0x00000001" gp_index="3">
        <object type="PU" os_index="0" cpuset="0x00000001" complete_cpuset="0x00000001" nodeset="0x00000001" complete_nodeset="0x00000001" gp_index="4"/>
      </object>
      <object type="Core" os_index="1" cpuset="0x00000002" complete_cpuset="0x00000002" nodeset="0x00000001" complete_nodeset="0x00000001" gp_index="5">
        <object type="PU" )" +
         second_pu + R"( nodeset="0x00000001" complete_nodeset="0x00000001" gp_index="6"/>
      </object>
    </object>
    <object type="OSDev" name="eth0" gp_index="9" subtype="Network" osdev_type="2"/>
  </object>
</topology>
)";
}

std::string refusal(const std::string& xml) {
  try {
    (void)tmap::topo::HwlocTreeTopology::from_xml_text(xml, "n.xml");
  } catch (const tmap::InputError& e) {
    return e.what();
  }
  return "(accepted)";
}

}  // namespace

TEST(HwlocInput, GoodXmlLoadsWithItsHostAndCores) {
  const auto t = tmap::topo::HwlocTreeTopology::from_xml_text(machine(), "n.xml");
  ASSERT_EQ(t->size(), 2);
  EXPECT_EQ(t->distance(0, 1), 4);  // PU, Core, Package, Core, PU
  EXPECT_EQ(host_name(*t, 0), "box7");
  EXPECT_EQ(slot_in_node(*t, 1), 1);
}

// hwloc's libxml plugin sets libxml2's generic error handler to a function
// of its own and is unloaded with its topology; tmap puts libxml2's own
// handler back, so neither tmap's next XML check nor the program around it
// jumps into unmapped memory (fuzz_hwloc's SEGV "at a non-executable region").
TEST(HwlocInput, LibxmlErrorHandlerIsLibxmlsOwnAfterAnHwlocTopology) {
  xmlSetGenericErrorFunc(nullptr, nullptr);
  const xmlGenericErrorFunc libxml_default = xmlGenericError;
  for (int round = 0; round < 3; ++round) {
    const auto t = tmap::topo::HwlocTreeTopology::from_xml_text(machine(), "n.xml");
    EXPECT_EQ(xmlGenericError, libxml_default) << "while loaded, round " << round;
    EXPECT_EQ(t->size(), 2);
    EXPECT_THROW((void)tmap::topo::HwlocTreeTopology::from_xml_text("<topology><object", "bad.xml"), tmap::InputError);
  }
  EXPECT_EQ(xmlGenericError, libxml_default);
}

TEST(HwlocInput, EachCrashClassIsRefusedWithAMessage) {
  // The second PU's attributes, and what each gets.
  const std::pair<const char*, const char*> cases[] = {
      // A missing set: libhwloc dereferences NULL (the fuzzers' crashes).
      {R"(os_index="1" cpuset="0x00000002" completec_puset="0x00000002")",
       "n.xml:12: PU object without complete_cpuset"},
      // A set that is not a bitmap, or escapes its parent.
      {R"(os_index="1" cpuset="1x00000002" complete_cpuset="0x00000002")", "is not an hwloc bitmap"},
      {R"(os_index="2" cpuset="0x00000004" complete_cpuset="0x00000004")", "is not within the parent's"},
      // A PU whose os_index is missing or wrong (the fuzzers' hangs).
      {R"(es_index="1" cpuset="0x00000002" complete_cpuset="0x00000002")", "PU without a valid os_index"},
      {R"(os_index="0" cpuset="0x00000002" complete_cpuset="0x00000002")", "differs from its cpuset bit"},
  };
  for (const auto& [pu, message] : cases) {
    EXPECT_NE(refusal(machine(pu)).find(message), std::string::npos) << pu << " -> " << refusal(machine(pu));
  }
  // Entities (billion laughs), unknown types, not XML at all.
  std::string bomb = machine();
  const std::string doctype = "<!DOCTYPE topology SYSTEM \"hwloc2.dtd\">";
  bomb.replace(bomb.find(doctype), doctype.size(),
               "<!DOCTYPE topology [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;\">]>");
  EXPECT_NE(refusal(bomb).find("entity declarations are not accepted"), std::string::npos) << refusal(bomb);
  std::string odd = machine();
  odd.replace(odd.find("type=\"Package\""), 14, "type=\"Rocket\"");
  EXPECT_NE(refusal(odd).find("unknown object type 'Rocket'"), std::string::npos);
  EXPECT_NE(refusal("<topology><oops").find("n.xml:1: not valid XML"), std::string::npos);
  EXPECT_NE(refusal("<topology/>").find("no PU"), std::string::npos);
}

TEST(HwlocInput, SyntheticDescriptionsAreBounded) {
  EXPECT_NO_THROW(tmap::topo::check_hwloc_synthetic("pack:1 numa:8 l2:2 core:4 pu:1"));
  EXPECT_NO_THROW(tmap::topo::check_hwloc_synthetic("pack:2(memory=1GB) core:4 pu:2"));
  EXPECT_THROW(tmap::topo::check_hwloc_synthetic("pack:1000 core:1000 pu:1000"), tmap::InputError);
  EXPECT_THROW(tmap::topo::check_hwloc_synthetic("pack:x"), tmap::InputError);
  EXPECT_THROW(tmap::topo::check_hwloc_synthetic("core:99999999999999999999"), tmap::InputError);
  EXPECT_THROW(tmap::topo::check_hwloc_synthetic("   "), tmap::InputError);
}

// hwloc 1.x files (lstopo 1.x on a machine without NUMA nodes): Socket
// objects and no nodesets. libhwloc 2 imports them (adding the NUMA node);
// so does tmap, with the same tree distances as the hwloc 2 file.
TEST(HwlocInput, Hwloc1FilesWithoutNodesetsLoad) {
  const std::string v1 = R"(<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE topology SYSTEM "hwloc.dtd">
<topology>
  <object type="Machine" os_index="0" cpuset="0x0000000f" complete_cpuset="0x0000000f" online_cpuset="0x0000000f" allowed_cpuset="0x0000000f">
    <object type="Socket" os_index="0" cpuset="0x0000000f" complete_cpuset="0x0000000f" online_cpuset="0x0000000f" allowed_cpuset="0x0000000f">
      <object type="Core" os_index="0" cpuset="0x00000003" complete_cpuset="0x00000003" online_cpuset="0x00000003" allowed_cpuset="0x00000003">
        <object type="PU" os_index="0" cpuset="0x00000001" complete_cpuset="0x00000001" online_cpuset="0x00000001" allowed_cpuset="0x00000001"/>
        <object type="PU" os_index="1" cpuset="0x00000002" complete_cpuset="0x00000002" online_cpuset="0x00000002" allowed_cpuset="0x00000002"/>
      </object>
      <object type="Core" os_index="1" cpuset="0x0000000c" complete_cpuset="0x0000000c" online_cpuset="0x0000000c" allowed_cpuset="0x0000000c">
        <object type="PU" os_index="2" cpuset="0x00000004" complete_cpuset="0x00000004" online_cpuset="0x00000004" allowed_cpuset="0x00000004"/>
        <object type="PU" os_index="3" cpuset="0x00000008" complete_cpuset="0x00000008" online_cpuset="0x00000008" allowed_cpuset="0x00000008"/>
      </object>
    </object>
  </object>
</topology>
)";
  const auto t = tmap::topo::HwlocTreeTopology::from_xml_text(v1, "v1.xml");
  ASSERT_EQ(t->size(), 4);
  EXPECT_EQ(t->distance(0, 1), 2);  // PU, Core, PU
  EXPECT_EQ(t->distance(0, 2), 4);  // PU, Core, Socket, Core, PU
  EXPECT_EQ(slot_in_node(*t, 2), 1);
  // All or none: a NUMA node without nodesets, or one object with them.
  std::string numa = v1;
  numa.replace(
      numa.find("<object type=\"Socket\""), 0,
      R"(<object type="NUMANode" os_index="0" cpuset="0x0000000f" complete_cpuset="0x0000000f" local_memory="1"/>
    )");
  EXPECT_NE(refusal(numa).find("n.xml:5: a NUMANode object in a file without nodesets"), std::string::npos)
      << refusal(numa);
  std::string mixed = v1;
  mixed.replace(mixed.find(R"(allowed_cpuset="0x00000003">)"), 0, R"(nodeset="0x1" complete_nodeset="0x1" )");
  EXPECT_NE(refusal(mixed).find("Core object with a nodeset in a file whose root has none"), std::string::npos)
      << refusal(mixed);
}

// Misplaced objects are reported as misplaced, not by the sets they lack.
TEST(HwlocInput, MalformedNestingIsNamed) {
  std::string inside_pu = machine();
  inside_pu.replace(inside_pu.find(R"(gp_index="4"/>)"), std::string(R"(gp_index="4"/>)").size(),
                    R"(gp_index="4"><object type="Machine"/></object>)");
  EXPECT_NE(refusal(inside_pu).find("a Machine object inside a PU: PUs are the leaves of the tree"), std::string::npos)
      << refusal(inside_pu);
  std::string machine_in_core = machine();
  machine_in_core.replace(machine_in_core.find(R"(<object type="PU" os_index="0")"), 0,
                          R"(<object type="Machine" cpuset="0x1" complete_cpuset="0x1"/>)");
  EXPECT_NE(refusal(machine_in_core).find("a Machine object inside a Core: Machine is the root of the tree"),
            std::string::npos)
      << refusal(machine_in_core);
}
