#include "report_objects.hpp"

#include <string_view>
#include <utility>
#include <vector>

namespace py = pybind11;

namespace tmap::python {

namespace {

class ObjectWriter final : public ReportWriter {
 public:
  explicit ObjectWriter(py::object object_type) : object_type_(std::move(object_type)) {}

  void begin_object() override { open(object_type_()); }
  void end_object() override { close(); }
  void begin_array() override { open(py::list()); }
  void end_array() override { close(); }
  void key(std::string_view name) override { key_ = py::str(name.data(), name.size()); }
  void null() override { put(py::none()); }
  void boolean(bool value) override { put(py::bool_(value)); }
  void integer(std::int64_t value) override { put(py::int_(value)); }
  void unsigned_integer(std::uint64_t value) override { put(py::int_(value)); }
  void real(double value) override { put(py::float_(value)); }
  void text(std::string_view value) override { put(py::str(value.data(), value.size())); }
  void integers(std::span<const std::int64_t> values) override {
    py::list list(values.size());
    for (std::size_t k = 0; k < values.size(); ++k) {
      PyObject* item = PyLong_FromLongLong(values[k]);
      if (item == nullptr) throw py::error_already_set();
      PyList_SET_ITEM(list.ptr(), static_cast<Py_ssize_t>(k), item);  // steals the reference
    }
    put(std::move(list));
  }

  [[nodiscard]] py::object result() const { return result_; }

 private:
  /// An open object or array, and the key it goes under in its parent.
  struct Open {
    py::object container;
    py::object key;
  };

  void open(py::object container) {
    stack_.push_back({std::move(container), key_});
    key_ = py::object();
  }
  void close() {
    auto top = std::move(stack_.back());
    stack_.pop_back();
    key_ = std::move(top.key);
    put(std::move(top.container));
  }
  void put(py::object value) {
    if (stack_.empty()) {
      result_ = std::move(value);
      return;
    }
    auto& container = stack_.back().container;
    if (PyList_Check(container.ptr())) {
      if (PyList_Append(container.ptr(), value.ptr()) != 0) throw py::error_already_set();
    } else if (PyObject_SetItem(container.ptr(), key_.ptr(), value.ptr()) != 0) {
      throw py::error_already_set();
    }
  }

  py::object object_type_;
  std::vector<Open> stack_;
  py::object key_;
  py::object result_;
};

}  // namespace

py::object report_object(const std::function<void(ReportWriter&)>& write, const py::object& object_type) {
  ObjectWriter writer(object_type);
  write(writer);
  return writer.result();
}

}  // namespace tmap::python
