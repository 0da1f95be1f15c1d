# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The eredu authors

"""The ctypes declarations against include/eredu/**/*.h: the committed
eredu/_capi_gen.py is what generate_capi.py writes from the headers now;
independently of the generator, every EREDU_API function has the C types
and arity of its header and every struct its fields, in order, with the
offsets and size the C compiler gives; and every struct the package hands
to the library carries struct_size = ctypes.sizeof of its class."""
import contextlib
import ctypes
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import cheader  # noqa: E402  (bindings/python/cheader.py)
import generate_capi  # noqa: E402
from eredu import _capi, _capi_gen  # noqa: E402
from eredu._library import lib  # noqa: E402

_SCALARS = {
    "uint8_t": ctypes.c_uint8,
    "uint32_t": ctypes.c_uint32,
    "int32_t": ctypes.c_int32,
    "uint64_t": ctypes.c_uint64,
    "size_t": ctypes.c_size_t,
    "bool": ctypes.c_bool,
}
_TYPEDEFS = {name: _SCALARS[base] for name, base in cheader.scalar_typedefs().items()}


def expected_ctype(ctype):
    """The ctypes type a C type must have (the rules of generate_capi's
    help, written again here so that the generator is checked, not
    trusted)."""
    if ctype.depth == 0:
        if ctype.base == "eredu_progress_fn":
            return _capi_gen.eredu_progress_fn
        return _SCALARS.get(ctype.base) or _TYPEDEFS[ctype.base]
    if ctype.base == "char":
        if ctype.depth == 1:
            return ctypes.c_char_p if ctype.const_pointee else ctypes.POINTER(ctypes.c_char)
        if ctype.depth == 2:
            return (ctypes.POINTER(ctypes.c_char_p) if ctype.const_pointee
                    else ctypes.POINTER(ctypes.c_void_p))
    if ctype.base == "void" and ctype.depth == 1:
        return ctypes.c_void_p
    pointee = (_SCALARS.get(ctype.base) or _TYPEDEFS.get(ctype.base)
               or getattr(_capi_gen, ctype.base))
    for _ in range(ctype.depth):
        pointee = ctypes.POINTER(pointee)
    return pointee


class GeneratedModule(unittest.TestCase):
    def test_the_committed_module_is_current(self):
        with open(_capi_gen.__file__, encoding="utf-8") as handle:
            self.assertEqual(handle.read(), generate_capi.render(),
                             "stale: run bindings/python/generate_capi.py")

    def test_the_check_mode(self):
        self.assertEqual(generate_capi.main(["--check"]), 0)
        with tempfile.TemporaryDirectory() as folder:
            stale = os.path.join(folder, "_capi_gen.py")
            with open(stale, "w", encoding="utf-8") as handle:
                handle.write(generate_capi.render().replace("c_uint64", "c_uint32", 1))
            with open(os.devnull, "w", encoding="utf-8") as sink, \
                    contextlib.redirect_stderr(sink):
                self.assertEqual(generate_capi.main(["--check", stale]), 1)
                self.assertEqual(generate_capi.main(["--check", stale + ".missing"]), 1)
            self.assertEqual(generate_capi.main([stale]), 0)
            self.assertEqual(generate_capi.main(["--check", stale]), 0)

    def test_capi_reexports_the_generated_declarations(self):
        self.assertIs(_capi.FUNCTIONS, _capi_gen.FUNCTIONS)
        self.assertIs(_capi.eredu_layout_tensor_info, _capi_gen.eredu_layout_tensor_info)


class FunctionTable(unittest.TestCase):
    def test_every_header_function_is_declared_and_nothing_else(self):
        declared = set(_capi_gen.FUNCTIONS)
        headers = set(cheader.functions())
        self.assertEqual(sorted(headers - declared), [], "declared nowhere in _capi_gen")
        self.assertEqual(sorted(declared - headers), [], "declared but not in any header")
        self.assertEqual(len(headers), 184)

    def test_arity_and_types_match_the_headers(self):
        for name, (ret, params) in cheader.functions().items():
            with self.subTest(function=name):
                restype, argtypes = _capi_gen.FUNCTIONS[name]
                self.assertEqual(len(argtypes), len(params), "arity")
                self.assertIs(restype, None if ret is None else expected_ctype(ret), "restype")
                for index, ((ctype, param), actual) in enumerate(zip(params, argtypes)):
                    self.assertIs(actual, expected_ctype(ctype), f"parameter {index} {param}")

    def test_spot_signatures(self):
        P = ctypes.POINTER
        self.assertEqual(_capi_gen.FUNCTIONS["eredu_plan_rank"], (ctypes.c_int32, [
            P(_capi_gen.eredu_model), P(_capi_gen.eredu_topology), ctypes.c_uint64,
            P(_capi_gen.eredu_plan_options), P(P(_capi_gen.eredu_layout)),
            P(P(_capi_gen.eredu_error))]))
        self.assertEqual(_capi_gen.FUNCTIONS["eredu_layout_tensor_count"],
                         (ctypes.c_size_t, [P(_capi_gen.eredu_layout)]))
        self.assertEqual(_capi_gen.FUNCTIONS["eredu_dense_transfer_schedule_can_admit"],
                         (ctypes.c_bool, [P(_capi_gen.eredu_dense_transfer_schedule)]))
        self.assertEqual(_capi_gen.FUNCTIONS["eredu_layout_to_json"][1][1], P(ctypes.c_void_p))

    def test_the_loaded_library_exports_every_declared_function(self):
        self.assertEqual(lib.missing, [])


class Types(unittest.TestCase):
    def test_scalar_typedefs(self):
        self.assertIs(_capi_gen.eredu_status, ctypes.c_int32)
        for name, base in cheader.scalar_typedefs().items():
            with self.subTest(typedef=name):
                self.assertIs(getattr(_capi_gen, name), _SCALARS[base])
                if name != "eredu_status":
                    self.assertIs(getattr(_capi_gen, name), ctypes.c_uint32)

    def test_the_progress_callback_type(self):
        self.assertEqual(list(cheader.callback_typedefs()), ["eredu_progress_fn"])
        progress = _capi_gen.eredu_progress_fn
        self.assertIs(progress._restype_, ctypes.c_int32)
        self.assertEqual(progress._argtypes_,
                         (ctypes.c_uint64, ctypes.c_uint64, ctypes.c_void_p))
        self.assertEqual(progress._flags_, ctypes.CFUNCTYPE(ctypes.c_int32)._flags_)

    def test_opaque_handle_types_are_those_of_types_h(self):
        opaque = cheader.opaque_types()
        self.assertEqual(len(opaque), 15)
        for name in opaque:
            self.assertTrue(issubclass(getattr(_capi_gen, name), ctypes.Structure), name)
            self.assertFalse(hasattr(getattr(_capi_gen, name), "_fields_"), name)


class Structs(unittest.TestCase):
    def test_every_header_struct_is_declared_with_its_fields(self):
        structs = cheader.structs()
        self.assertEqual(len(structs), 42)
        self.assertEqual(sorted(structs),
                         sorted(set(cheader.struct_typedefs()) - set(cheader.opaque_types())))
        for name, fields in structs.items():
            with self.subTest(struct=name):
                declared = getattr(_capi_gen, name)._fields_
                self.assertEqual([field for field, _ in declared], [field for _, field in fields])
                for (field, actual), (ctype, _) in zip(declared, fields):
                    self.assertIs(actual, expected_ctype(ctype), field)

    def test_the_library_accepts_every_struct_at_its_ctypes_size(self):
        structs = cheader.structs()
        sized = {name for name, fields in structs.items() if fields[0][1] == "struct_size"}
        # The plain eredu_read_extent and eredu_tensor_buffer have no
        # struct_size; every sized struct has its _init function.
        self.assertEqual(sorted(set(structs) - sized), ["eredu_read_extent", "eredu_tensor_buffer"])
        initialized = {name for name in sized if name + "_init" in _capi_gen.FUNCTIONS}
        self.assertEqual(sorted(sized - initialized), [])
        for name in sorted(initialized):
            with self.subTest(struct=name):
                struct = getattr(_capi_gen, name)()
                init = getattr(lib, name + "_init")
                self.assertEqual(init(ctypes.byref(struct), ctypes.sizeof(struct), None), 0)
                self.assertEqual(struct.struct_size, ctypes.sizeof(struct))
                self.assertEqual(ctypes.sizeof(_capi.sized(type(struct))), struct.struct_size)
                self.assertEqual(_capi.sized(type(struct)).struct_size, struct.struct_size)

    @unittest.skipUnless(shutil.which("cc"), "no C compiler to compare the layouts with")
    def test_sizes_and_offsets_are_those_of_the_c_compiler(self):
        structs = cheader.structs()
        # Every header but the umbrella eredu.h, which needs the generated
        # eredu/version.h of a build.
        lines = ["#include <stddef.h>", "#include <stdio.h>"]
        lines += [f"#include <eredu/{os.path.relpath(path, cheader.INCLUDE)}>"
                  for path in cheader.header_paths() if os.path.basename(path) != "eredu.h"]
        lines.append("int main(void) {")
        for name, fields in structs.items():
            lines.append(f'  printf("{name} %zu\\n", sizeof({name}));')
            lines += [f'  printf("{name}.{field} %zu\\n", offsetof({name}, {field}));'
                      for _, field in fields]
        lines += ["  return 0;", "}", ""]
        with tempfile.TemporaryDirectory() as folder:
            source, program = os.path.join(folder, "layout.c"), os.path.join(folder, "layout")
            with open(source, "w", encoding="utf-8") as handle:
                handle.write("\n".join(lines))
            subprocess.run(["cc", "-std=c99", "-I", os.path.dirname(cheader.INCLUDE), "-o",
                            program, source], check=True, capture_output=True)
            printed = subprocess.run([program], check=True, capture_output=True, text=True)
        compiler = dict(line.rsplit(" ", 1) for line in printed.stdout.splitlines())
        expected = {}
        for name, fields in structs.items():
            cls = getattr(_capi_gen, name)
            expected[name] = str(ctypes.sizeof(cls))
            for _, field in fields:
                expected[f"{name}.{field}"] = str(getattr(cls, field).offset)
        self.assertEqual(expected, compiler)


# ---- Every struct the package passes carries struct_size = sizeof -------

def _structs_reachable(value, depth=0):
    """The ctypes Structures an argument points to: through byref, pointers,
    arrays of pointers and the pointer fields of the structs themselves
    (the first element of a pointed-to array)."""
    if depth > 6 or value is None:
        return
    if type(value).__name__ == "CArgObject":  # ctypes.byref(...)
        yield from _structs_reachable(value._obj, depth + 1)
    elif isinstance(value, ctypes.Array):
        for element in value:
            yield from _structs_reachable(element, depth + 1)
    elif isinstance(value, ctypes._Pointer):
        if value and issubclass(value._type_, (ctypes.Structure, ctypes._Pointer)) \
                and getattr(value._type_, "_fields_", True):
            yield from _structs_reachable(value.contents, depth + 1)
    elif isinstance(value, ctypes.Structure) and hasattr(value, "_fields_"):
        yield value
        for field, _ in value._fields_:
            yield from _structs_reachable(getattr(value, field), depth + 1)


@contextlib.contextmanager
def checking_struct_sizes(test):
    """Wraps every library function: each struct reachable from its
    arguments must have struct_size == ctypes.sizeof(its class), and every
    `_init` function must be given that size. Yields the names called."""
    called = set()
    originals = {name: getattr(lib, name) for name in _capi_gen.FUNCTIONS}

    def wrap(name, function):
        def checked(*args):
            called.add(name)
            if name.endswith("_init"):
                test.assertEqual(args[1], ctypes.sizeof(args[0]._obj), name)
            else:
                for argument in args:
                    for struct in _structs_reachable(argument):
                        if not hasattr(struct, "struct_size"):  # eredu_tensor_buffer
                            continue
                        test.assertEqual(struct.struct_size, ctypes.sizeof(struct),
                                         f"{name}: {type(struct).__name__}.struct_size")
            return function(*args)
        return checked

    for name, function in originals.items():
        setattr(lib, name, wrap(name, function))
    try:
        yield called
    finally:
        for name, function in originals.items():
            setattr(lib, name, function)


def _takes_a_struct(argtypes):
    for argtype in argtypes:
        while issubclass(argtype, ctypes._Pointer):
            argtype = argtype._type_
            if issubclass(argtype, ctypes.Structure) and hasattr(argtype, "_fields_"):
                return True
    return False


class StructSizes(unittest.TestCase):
    def test_every_struct_handed_to_the_library_has_its_ctypes_size(self):
        with checking_struct_sizes(self) as called:
            _exercise_every_struct()
        expected = {name for name, (_, argtypes) in _capi_gen.FUNCTIONS.items()
                    if _takes_a_struct(argtypes) and not name.endswith("_init")}
        self.assertEqual(sorted(expected - called), [], "not exercised")


def _exercise_load(plan):
    """eredu_read_plan_load, which the package does not wrap (read_rank
    fills the caller's buffers instead)."""
    from eredu import _capi
    from eredu.errors import call
    options = _capi.defaults(_capi_gen.eredu_read_options)
    stats = _capi.sized(_capi_gen.eredu_read_stats)
    data = ctypes.POINTER(_capi_gen.eredu_rank_data)()
    call(lib.eredu_read_plan_load, plan._handle(), ctypes.byref(options), ctypes.byref(data),
         ctypes.byref(stats))
    try:
        assert lib.eredu_rank_data_tensor_count(data) == stats.tensors == 48
    finally:
        lib.eredu_rank_data_free(data)


def _exercise_plan_file(model):
    """The plan-file functions, which the package does not wrap yet."""
    from eredu import _capi
    from eredu._handle import handle_of
    from eredu.errors import call
    from eredu.plan import ParallelTopology, plan_options
    handle = handle_of(model, "ModelDescription", "model")
    topology = ctypes.byref(ParallelTopology.of((2, 1, 1, 1)).struct())
    options = ctypes.byref(plan_options(0, 1))
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "world.eredu").encode()
        call(lib.eredu_plan_file_write, handle, topology, options, path)
        file = ctypes.POINTER(_capi_gen.eredu_plan_file)()
        call(lib.eredu_plan_file_open, path, ctypes.byref(file))
        try:
            info = _capi.sized(_capi_gen.eredu_plan_file_info)
            call(lib.eredu_plan_file_get_info, file, ctypes.byref(info))
            assert info.world_size == 2
            call(lib.eredu_plan_file_verify, file, handle, topology, options)
        finally:
            lib.eredu_plan_file_free(file)


def _exercise_every_struct():
    """Calls every function that takes a struct, through the package."""
    import eredu
    from eredu import (DenseDiskStreamLoadOptions, GroupScope, LayerwiseLoadOptions,
                       LinearFormat, LinearFormatSpec, MemberSharding as Sharding,
                       ModuleParameter, OffloadConfig, OffloadUnitSpec, ParameterBankLoadOptions,
                       ParameterMemberSpec as Member, ParameterRole as Role, TensorSelection,
                       WeightBinding, WeightResidency)
    members = [Member("w", [8, 8], Sharding.partitioned(0), "BF16"),
               Member("b", [8], Sharding.replicated(), "F32")]
    scope = GroupScope.indexed(layer=0)
    with eredu.ParameterGroupSpec.partitioned("g", Role.ATTENTION_HEADS, 4, members,
                                              scope=scope) as group, \
            eredu.ModelDescription.from_groups([group], name="m", layers=1) as model, \
            eredu.plan_rank(model, (2, 1, 1, 1), 1, threads=1) as layout:
        group.logical_name(), group.members(), group.member_target(0), group.scope()
        layout.topology(), layout.totals(), layout.tensor_at(0)
        model.info()
        eredu.plan_world_json(model, (2, 1, 1, 1), progress=lambda done, total: None)
        eredu.check_json(model, (2, 1, 1, 1), device_budget_bytes=1 << 30, threads=1)
        try:  # a failure's problems (eredu_error_get_entry)
            eredu.plan_rank(model, (8, 1, 1, 1), 0)
        except eredu.EreduError as error:
            error.problems
        eredu.fit_json(model, device_budget_bytes=1 << 30, max_world=2, threads=1,
                       progress=lambda done, total: None)
        eredu.launch_env({"RANK": "1", "WORLD_SIZE": "2"}).check((2, 1, 1, 1))
        try:  # this process's environment may name no launcher
            eredu.launch_env()
        except eredu.EreduError:
            pass
        _exercise_plan_file(model)
        spec = LinearFormatSpec.affine(LinearFormat.affine(32, 4), "w.s", "w.z", "BF16")
        eredu.expand_linear_format_member(Member("w", [8, 64], Sharding.equal(0), "BF16"), spec)
        eredu.expand_linear_format_group(group, [None, None]).close()
        eredu.expand_linear_format_model(model, [None, None]).close()
        spec.validate()
        LinearFormat.mxfp4().validate()
        eredu.ggml_type_by_code(12), eredu.ggml_type_by_name("Q4_K")
        eredu.partitioned_group_with_preferred_units("p", Role.ATTENTION_HEADS, 4, members,
                                                     scope=scope).close()
        eredu.projection_parameter_group("o", Role.ROW_PROJECTION, [ModuleParameter("o", [8, 8])],
                                         eredu.ProjectionSharding.ROW, scope=scope).close()
        eredu.partitioned_projection_group("mlp", Role.FEED_FORWARD_INTERMEDIATE, [
            ([ModuleParameter("up", [16, 8])], eredu.ProjectionSharding.COLUMN)], 8,
            scope=scope).close()
        eredu.segmented_projection_group("s", Role.FEED_FORWARD_INTERMEDIATE,
                                         [ModuleParameter("f", [12, 8])],
                                         [ModuleParameter("r", [8, 6])],
                                         [(0, 4), (4, 8), (8, 12)], 2, scope=scope).close()
    gguf = os.path.join(cheader.REPO, "examples", "files", "stories260K.gguf")
    with eredu.describe_model(gguf, pad_vocab=1) as described, \
            eredu.Checkpoint.open(gguf) as checkpoint, \
            eredu.plan_rank(described, (2, 1, 1, 1), 1) as layout, \
            eredu.read_plan(layout, checkpoint) as plan:
        plan.tensors
        plan.read_rank()
        _exercise_load(plan)
        checkpoint.describe(pad_vocab=1).close()
    with eredu.ParallelModelInfo((2, 1, 1, 1), "generic", ["w"], 1, 2, 3, 4) as info:
        info.topology(), info.effective_model_type(), info.local_parameter_bytes()
    with eredu.OffloadPlan(OffloadConfig(device_budget_bytes=10), [OffloadUnitSpec("a", 4)]) \
            as plan:
        plan.config(), plan.units(), plan.planned_bytes(eredu.MemoryTier.DEVICE)
    binding = WeightBinding("w", "k", TensorSelection.range(0, 0, 2), 8, "t")
    binding.validate()
    with eredu.StaticUnitBindings("unit", [binding]) as unit:
        unit.bindings()
    residency = WeightResidency.layerwise_host(LayerwiseLoadOptions(OffloadConfig(), 2))
    residency.validate(3)
    eredu.residency_from_json('{"schema":"eredu.residency.v1","kind":"fully_resident"}', 3)
    WeightResidency.dense_disk_stream(DenseDiskStreamLoadOptions(32, 64, 3, 2)) \
        .with_independent_parameter_banks(ParameterBankLoadOptions(OffloadConfig(), 64, 32)) \
        .validate(2)
    with eredu.LayerwiseModelMetadata("t", LinearFormat.affine(), 4, 10,
                                      eredu.ExecutionResidency.LAYERWISE_HOST, 20, 8, 6, 2) as m:
        m.set_quantization(LinearFormat.mxfp4())
        m.quantization(), m.layer_count()
    parallel = eredu.ParallelLoadRequest(eredu.ParallelTopology(2), 1, 2, 128)
    with eredu.NormalizedLoadRequest(eredu.QuantizationRequest.affine(32, 4)) as request:
        request.with_parallel_execution(parallel).with_weight_residency(residency)
        request.with_drafting_plan(eredu.DraftingPlan(eredu.DraftingPlanKind.EMBEDDED, 2))
        request.quantization(), request.parallel_execution(), request.drafting()
        request.weight_residency(3), request.validate_model_preparation()


if __name__ == "__main__":
    unittest.main()
