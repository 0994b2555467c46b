// The libxml2 tree reads the hwloc XML readers share (hwloc_input.cpp's
// checked copy for libhwloc, gpu/hwloc_gpus.cpp's GPUs): built with hwloc
// only, like them.
#pragma once

#include <libxml/tree.h>

#include <string>

namespace tmap::topo {

/// An element's attribute, "" when absent (`present`, when given, says which).
inline std::string xml_attribute(xmlNodePtr node, const char* name, bool* present = nullptr) {
  xmlChar* value = xmlGetProp(node, reinterpret_cast<const xmlChar*>(name));
  if (present != nullptr) *present = value != nullptr;
  if (value == nullptr) return {};
  std::string text(reinterpret_cast<const char*>(value));
  xmlFree(value);
  return text;
}

/// Whether `node` is an element named `name`.
inline bool xml_named(xmlNodePtr node, const char* name) {
  return node->type == XML_ELEMENT_NODE && xmlStrcmp(node->name, reinterpret_cast<const xmlChar*>(name)) == 0;
}

}  // namespace tmap::topo
