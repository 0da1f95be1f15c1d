// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// eredu_weight_binding_* and eredu_static_unit_bindings_*: checkpoint weight
// bindings and the seed's StaticUnitBindings (docs/residency.md, "Weight
// bindings").
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "firewall.hpp"
#include "outputs.hpp"
#include "residency/binding.hpp"

/// A built unit plus one C view of each binding's selection, made once so
/// getters hand out borrowed pointers.
struct eredu_static_unit_bindings {
  eredu::StaticUnitBindings unit;
  std::vector<eredu_tensor_selection> selections;
};

namespace eredu::capi {
namespace {

using Kind = TensorSelection::Kind;

static_assert(EREDU_SELECTION_FULL == static_cast<int>(Kind::Full));
static_assert(EREDU_SELECTION_RANGE == static_cast<int>(Kind::Range));
static_assert(EREDU_SELECTION_INDICES == static_cast<int>(Kind::Indices));
static_assert(EREDU_SELECTION_CONTIGUOUS == static_cast<int>(Kind::Contiguous));
static_assert(kTensorSelectionKindCount == 4);

constexpr const char* kKindNames[] = {"full", "range", "indices", "contiguous"};

/// Names a field ("->name", "" for the descriptor itself) of one binding
/// descriptor: "bindings[2]->name" in an array; for a lone descriptor the
/// descriptor is `base` and its fields go by their own names ("name").
class BindingField {
 public:
  BindingField(const char* base, std::optional<std::size_t> index) : base_(base), index_(index) {}
  ArgumentName operator()(const char* field) const {
    if (index_) return ArgumentName(base_, *index_, field);
    return ArgumentName(*field == '\0' ? base_ : field + 2);  // skip "->"
  }

 private:
  const char* base_;
  std::optional<std::size_t> index_;
};

Result<void> unused_field(bool set, const ArgumentName& name, Kind kind) {
  if (set) {
    return failf(Status::InvalidArgument, "{} is set, but a {} selection does not use it",
                 name.text(), kKindNames[static_cast<std::size_t>(kind)]);
  }
  return outcome::success();
}

Result<std::vector<std::uint64_t>> array_argument(const std::uint64_t* values, std::size_t count,
                                                  const ArgumentName& name,
                                                  const ArgumentName& count_name) {
  EREDU_TRY(require_array(values, count, name));
  EREDU_TRY(count_argument(count, sizeof(std::uint64_t), sizeof(std::uint64_t), count_name));
  if (count == 0) return std::vector<std::uint64_t>{};
  return std::vector<std::uint64_t>(values, values + count);
}

Result<TensorSelection> selection_argument(const eredu_tensor_selection* given,
                                           const BindingField& field) {
  if (given == nullptr) return TensorSelection::full();
  EREDU_TRY(read, read_sized(given, SizedDefaults<eredu_tensor_selection>::value(),
                             field("->selection")));
  const eredu_tensor_selection* selection = &read;
  if (selection->kind >= kTensorSelectionKindCount) {
    return failf(Status::InvalidArgument, "unknown {} value {}", field("->selection->kind").text(),
                 selection->kind);
  }
  const auto kind = static_cast<Kind>(selection->kind);
  const bool range = kind == Kind::Range;
  const bool indices = kind == Kind::Indices;
  const bool contiguous = kind == Kind::Contiguous;
  EREDU_TRY(
      unused_field(!range && !indices && selection->axis != 0, field("->selection->axis"), kind));
  EREDU_TRY(unused_field(!range && selection->start != 0, field("->selection->start"), kind));
  EREDU_TRY(unused_field(!range && selection->end != 0, field("->selection->end"), kind));
  EREDU_TRY(unused_field(!indices && (selection->indices != nullptr || selection->index_count != 0),
                         field("->selection->indices"), kind));
  EREDU_TRY(unused_field(!contiguous && selection->offset_elements != 0,
                         field("->selection->offset_elements"), kind));
  EREDU_TRY(unused_field(!contiguous && (selection->shape != nullptr || selection->ndim != 0),
                         field("->selection->shape"), kind));
  EREDU_TRY(index_values,
            array_argument(selection->indices, selection->index_count,
                           field("->selection->indices"), field("->selection->index_count")));
  EREDU_TRY(shape, array_argument(selection->shape, selection->ndim, field("->selection->shape"),
                                  field("->selection->ndim")));
  return TensorSelection{kind,
                         selection->axis,
                         selection->start,
                         selection->end,
                         std::move(index_values),
                         selection->offset_elements,
                         std::move(shape)};
}

// A binding whose C fields are well-formed; the seed's checks come later.
struct BindingArgument {
  std::string_view name;
  std::string_view checkpoint_key;
  TensorSelection selection;
  std::uint64_t expected_bytes = 0;
  std::optional<std::string_view> logical_target;

  Result<WeightBinding> build() const {
    EREDU_TRY(binding, WeightBinding::create(std::string(name), std::string(checkpoint_key),
                                             selection, expected_bytes));
    if (!logical_target) return binding;
    return binding.with_logical_target(std::string(*logical_target));
  }
};

Result<BindingArgument> binding_argument(const eredu_weight_binding_desc* given,
                                         const BindingField& field) {
  EREDU_TRY(read, read_sized(given, SizedDefaults<eredu_weight_binding_desc>::value(), field("")));
  const eredu_weight_binding_desc* desc = &read;
  EREDU_TRY(name, text_argument(desc->name, field("->name")));
  EREDU_TRY(checkpoint_key, text_argument(desc->checkpoint_key, field("->checkpoint_key")));
  EREDU_TRY(selection, selection_argument(desc->selection, field));
  std::optional<std::string_view> logical_target;
  if (desc->logical_target != nullptr) {
    EREDU_TRY(target, text_argument(desc->logical_target, field("->logical_target")));
    logical_target = target;
  }
  return BindingArgument{name, checkpoint_key, std::move(selection), desc->expected_bytes,
                         logical_target};
}

eredu_tensor_selection selection_view(const TensorSelection& selection) {
  eredu_tensor_selection view{};
  view.struct_size = sizeof(eredu_tensor_selection);
  view.kind = static_cast<eredu_selection_kind>(selection.kind);
  view.axis = selection.axis;
  view.start = selection.start;
  view.end = selection.end;
  view.indices = selection.indices.empty() ? nullptr : selection.indices.data();
  view.index_count = selection.indices.size();
  view.offset_elements = selection.offset_elements;
  view.shape = selection.shape.empty() ? nullptr : selection.shape.data();
  view.ndim = selection.shape.size();
  return view;
}

}  // namespace
}  // namespace eredu::capi

// Defined at global scope: GCC gives extern "C" definitions inside a
// namespace that namespace's (hidden) visibility.
using namespace eredu;
using namespace eredu::capi;

extern "C" {

eredu_status eredu_tensor_selection_init(eredu_tensor_selection* selection, size_t size,
                                         eredu_error** error) {
  return init_sized(selection, size, "selection", error);
}

eredu_status eredu_weight_binding_desc_init(eredu_weight_binding_desc* desc, size_t size,
                                            eredu_error** error) {
  return init_sized(desc, size, "desc", error);
}

eredu_status eredu_weight_binding_validate(const eredu_weight_binding_desc* desc,
                                           eredu_error** error) {
  return firewall(error, [&]() -> Result<void> {
    EREDU_TRY(argument, binding_argument(desc, BindingField("desc", std::nullopt)));
    EREDU_TRY(argument.build());
    return outcome::success();
  });
}

eredu_status eredu_static_unit_bindings_new(const char* id,
                                            const eredu_weight_binding_desc* const* bindings,
                                            size_t binding_count, eredu_static_unit_bindings** out,
                                            eredu_error** error) {
  return firewall(
      error,
      [&]() -> Result<void> {
        EREDU_TRY(unit_id, text_argument(id, "id"));
        EREDU_TRY(require_array(bindings, binding_count, "bindings"));
        EREDU_TRY(count_argument(binding_count, sizeof(const eredu_weight_binding_desc*),
                                 sizeof(WeightBinding), "binding_count"));
        std::vector<BindingArgument> arguments;
        arguments.reserve(binding_count);
        for (std::size_t i = 0; i < binding_count; ++i) {
          EREDU_TRY(argument, binding_argument(bindings[i], BindingField("bindings", i)));
          arguments.push_back(std::move(argument));
        }
        EREDU_TRY(require(out, "out"));
        // The seed builds every binding before the unit id.
        std::vector<WeightBinding> built;
        built.reserve(arguments.size());
        for (const BindingArgument& argument : arguments) {
          EREDU_TRY(binding, argument.build());
          built.push_back(std::move(binding));
        }
        EREDU_TRY(unit, StaticUnitBindings::create(std::string(unit_id), std::move(built)));
        auto handle = std::make_unique<eredu_static_unit_bindings>(
            eredu_static_unit_bindings{std::move(unit), {}});
        handle->selections.reserve(handle->unit.bindings().size());
        for (const WeightBinding& binding : handle->unit.bindings()) {
          handle->selections.push_back(selection_view(binding.selection()));
        }
        *out = handle.release();
        return outcome::success();
      },
      out);
}

void eredu_static_unit_bindings_free(eredu_static_unit_bindings* unit) { delete unit; }

eredu_status eredu_static_unit_bindings_id(const eredu_static_unit_bindings* unit, const char** out,
                                           size_t* length, eredu_error** error) {
  return handle_call(
      unit, "unit", error,
      [&](const eredu_static_unit_bindings& handle) {
        return string_out(handle.unit.id().as_str(), out, length);
      },
      out, length);
}

size_t eredu_static_unit_bindings_count(const eredu_static_unit_bindings* unit) {
  return unit == nullptr ? 0 : unit->unit.bindings().size();
}

eredu_status eredu_static_unit_bindings_binding(const eredu_static_unit_bindings* unit,
                                                size_t index, eredu_weight_binding_desc* binding,
                                                eredu_error** error) {
  return handle_call(
      unit, "unit", error,
      [&](const eredu_static_unit_bindings& handle) -> Result<void> {
        EREDU_TRY(sized_out(binding, "binding"));
        EREDU_TRY(index_argument(index, handle.unit.bindings().size(), "index"));
        const WeightBinding& source = handle.unit.bindings()[index];
        eredu_weight_binding_desc view{};
        view.name = source.name().c_str();
        view.checkpoint_key = source.checkpoint_key().c_str();
        view.selection = &handle.selections[index];
        view.expected_bytes = source.expected_bytes();
        view.logical_target = source.logical_target() ? source.logical_target()->c_str() : nullptr;
        write_sized(binding, view);
        return outcome::success();
      },
      binding);
}

}  // extern "C"
