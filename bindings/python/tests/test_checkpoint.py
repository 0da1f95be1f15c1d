# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The eredu authors

"""Describing a model from its files, opening its checkpoint and read plans
(eredu/checkpoint.h) on examples/files/stories260K.gguf, a GGUF llama model:
48 F32 tensors; 5 layers, hidden 64, 8 query heads, 4 KV heads, ffn 172,
vocabulary 512. The read plan's text must equal what `eredu read-plan`
prints (tests/data/stories260K.tp2.rank1.readplan.json), and read_into must
reassemble the file's bytes."""
import contextlib
import json
import os
import pathlib
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import eredu  # noqa: E402
from cheader import REPO  # noqa: E402  (bindings/python/cheader.py)
from eredu import (Checkpoint, ClosedError, GeneralError, ReadExtent, ReadPlan,  # noqa: E402
                   ReadTensor, describe_model, plan_rank, read_plan, status)

GGUF_NAME = os.path.join("examples", "files", "stories260K.gguf")
GGUF = os.path.join(REPO, GGUF_NAME)
# `eredu read-plan examples/files/stories260K.gguf --tp 2 --rank 1 --format
# json`, run at the repository root (tests/cli checks it still is).
CLI_JSON = os.path.join(REPO, "tests", "data", "stories260K.tp2.rank1.readplan.json")


def plan_of(path, tp, rank, **describe):
    """The read plan of `rank` at tensor parallel `tp`; the description,
    checkpoint and layout are closed before it is used."""
    with describe_model(path, **describe) as model, Checkpoint.open(path) as checkpoint, \
            plan_rank(model, (tp, 1, 1, 1), rank) as layout:
        return read_plan(layout, checkpoint)


def tensor_named(plan, target):
    (tensor,) = [tensor for tensor in plan.tensors if tensor.target == target]
    return tensor


class Stories260K(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not os.path.exists(GGUF):
            raise FileNotFoundError(f"{GGUF} is missing: these tests read it")

    def test_describe_gives_the_model_of_the_file(self):
        with describe_model(GGUF) as model:
            self.assertIsInstance(model, eredu.ModelDescription)
            self.assertEqual(model.tensor_count(), 48)
            self.assertEqual(model.global_bytes(), 1171200)
        with describe_model(pathlib.Path(GGUF), config_only=True) as model:
            self.assertEqual(model.tensor_count(), 48)  # a GGUF file: its own header

    def test_a_file_leaves_no_warning(self):
        with describe_model(GGUF) as model:
            self.assertEqual(model.warnings(), [])

    def test_an_index_without_total_size_leaves_a_warning(self):
        source = os.path.join(REPO, "examples", "models", "qwen3-1.7b")
        with tempfile.TemporaryDirectory() as folder:
            with open(os.path.join(source, "config.json"), encoding="utf-8") as handle:
                config = handle.read()
            with open(os.path.join(source, "model.safetensors.index.json"),
                      encoding="utf-8") as handle:
                index = json.load(handle)
            total = index["metadata"].pop("total_size")
            with open(os.path.join(folder, "config.json"), "w", encoding="utf-8") as handle:
                handle.write(config)
            with open(os.path.join(folder, "model.safetensors.index.json"), "w",
                      encoding="utf-8") as handle:
                json.dump(index, handle)
            with describe_model(folder) as model:
                self.assertEqual(model.global_bytes(), total)
                self.assertEqual(model.warnings(), [
                    f"{folder}/model.safetensors.index.json gives no metadata.total_size: the "
                    f"tensors are checked, their bytes ({total}) are not"])

    def test_model_types_start_with_the_recipe_families(self):
        types = eredu.model_types()
        self.assertEqual(types[:5], ["llama", "mistral", "qwen2", "qwen3", "phi3"])
        self.assertIn("qwen2_vl", types)
        self.assertNotIn("deepseek_vl_v2", types)

    def test_describe_pads_the_vocabulary(self):
        # 512 rows of 256 bytes (at offset 145504) padded to a multiple of
        # 3 x 2: 516, 258 per rank; rank 1 reads rows [258, 512) and pads 4.
        with plan_of(GGUF, 2, 1, pad_vocab=3) as plan:
            self.assertEqual(tensor_named(plan, "output.weight"), ReadTensor(
                "output.weight", "F32", (258, 64), 66048, 65024, 4,
                (ReadExtent(0, 211552, 65024, 1, 65024, 0, 65024),)))
            self.assertEqual(plan.read_bytes, 587008 - 2 * 512)

    def test_the_checkpoint_stores_48_tensors(self):
        with Checkpoint.open(GGUF) as checkpoint:
            self.assertEqual(len(checkpoint), 48)
            self.assertEqual(repr(checkpoint), "<Checkpoint 48 tensors>")
        self.assertEqual(repr(checkpoint), "<Checkpoint closed>")
        with self.assertRaises(ClosedError):
            len(checkpoint)

    def test_a_checkpoint_describes_its_model_from_what_it_read(self):
        with Checkpoint.open(GGUF) as checkpoint, describe_model(GGUF, pad_vocab=3) as from_path:
            with checkpoint.describe(pad_vocab=3) as model:
                self.assertEqual(model.to_json(), from_path.to_json())
                with plan_rank(model, (2, 1, 1, 1), 1) as layout, \
                        read_plan(layout, checkpoint) as plan:
                    self.assertEqual(plan.read_bytes, 587008 - 2 * 512)
            with self.assertRaises(ValueError):
                checkpoint.describe(pad_vocab=0)
        with self.assertRaises(ClosedError):
            checkpoint.describe()
        adapter = os.path.join(REPO, "examples", "files", "gpt2-lora", "adapter_model.safetensors")
        with Checkpoint.open(adapter) as lora:
            with self.assertRaises(GeneralError) as raised:
                lora.describe()
            self.assertEqual(raised.exception.code, status.EREDU_E_PARSE)
            self.assertIn("holds no configuration", str(raised.exception))

    def test_tp2_rank1(self):
        with plan_of(GGUF, 2, 1) as plan:
            self.assertIsInstance(plan, ReadPlan)
            self.assertEqual(plan.rank, 1)
            self.assertEqual(plan.read_bytes, 587008)
            self.assertEqual(plan.files, [GGUF])
            self.assertEqual(plan.file_paths, [GGUF])
            tensors = plan.tensors
            self.assertEqual(len(tensors), 48)
            self.assertEqual([tensor.target for tensor in tensors],
                             sorted(tensor.target for tensor in tensors))
            self.assertEqual(sum(tensor.read_bytes for tensor in tensors), 587008)
            self.assertEqual({tensor.dtype for tensor in tensors}, {"F32"})
            self.assertEqual(tensor_named(plan, "blk.0.attn_q.weight"), ReadTensor(
                "blk.0.attn_q.weight", "F32", (32, 64), 8192, 8192, 0,
                (ReadExtent(file=0, offset=284768, length=8192, count=1, stride=8192, dest=0,
                            dest_stride=8192),)))
            output = tensor_named(plan, "blk.0.attn_output.weight")
            self.assertEqual(output.local_shape, (64, 32))
            self.assertEqual(output.extents, (ReadExtent(file=0, offset=309472, length=128,
                                                         count=64, stride=256, dest=0,
                                                         dest_stride=128),))
            self.assertEqual(repr(plan), "<ReadPlan rank 1, 48 tensors, 587008 bytes>")

    def test_the_text_is_the_commands(self):
        # The plan names its file as given: from the repository root, as the
        # command was run.
        with open(CLI_JSON, encoding="utf-8") as handle:
            expected = handle.read()
        with contextlib.chdir(REPO), plan_of(GGUF_NAME, 2, 1) as plan:
            self.assertEqual(plan.files, [GGUF_NAME])
            self.assertEqual(plan.to_json(), expected)

    def test_read_into_reassembles_the_tensor(self):
        target = "blk.0.attn_q.weight"
        with plan_of(GGUF, 1, 0) as whole, plan_of(GGUF, 2, 0) as first, \
                plan_of(GGUF, 2, 1) as second:
            full = whole.read_into(target)
            (extent,) = tensor_named(whole, target).extents
            with open(GGUF, "rb") as handle:
                handle.seek(extent.offset)
                self.assertEqual(full, handle.read(16384))
            self.assertEqual(len(full), 64 * 64 * 4)
            halves = first.read_into(target), second.read_into(target)
            self.assertEqual(halves[0] + halves[1], full)
            self.assertIsInstance(halves[1], bytearray)
            # By index, and a strided tensor: rank 1's columns [32, 64) of
            # each of the 64 rows of blk.0.attn_output.weight.
            index = [tensor.target for tensor in second.tensors].index(target)
            self.assertEqual(second.read_into(index), halves[1])
            rows = whole.read_into("blk.0.attn_output.weight")
            self.assertEqual(second.read_into("blk.0.attn_output.weight"),
                             b"".join(rows[row * 256 + 128:row * 256 + 256] for row in range(64)))

    def test_read_into_leaves_padding_rows_zero(self):
        with plan_of(GGUF, 1, 0) as whole, plan_of(GGUF, 2, 1, pad_vocab=3) as padded:
            rows = whole.read_into("token_embd.weight")
            data = padded.read_into("token_embd.weight")
            self.assertEqual(data, rows[258 * 256:] + bytes(4 * 256))

    def test_read_into_a_given_buffer(self):
        target = "blk.0.attn_output.weight"
        with plan_of(GGUF, 2, 1) as plan:
            expected = plan.read_into(target)
            buffer = bytearray(b"x" * (len(expected) + 3))
            self.assertIs(plan.read_into(target, buffer), buffer)
            self.assertEqual(buffer, expected + b"xxx")
            with self.assertRaises(GeneralError) as caught:
                plan.read_into(target, bytearray(len(expected) - 1))
            self.assertEqual(caught.exception.code, status.EREDU_E_INVALID_ARGUMENT)
            with self.assertRaises(TypeError):
                plan.read_into(target, bytes(len(expected)))

    def test_read_into_refuses_unknown_tensors(self):
        with plan_of(GGUF, 2, 1) as plan:
            with self.assertRaisesRegex(KeyError, "the read plan has no tensor 'lm_head.weight'"):
                plan.read_into("lm_head.weight")
            with self.assertRaises(GeneralError) as caught:
                plan.read_into(48)
            self.assertEqual(caught.exception.code, status.EREDU_E_INVALID_ARGUMENT)
            with self.assertRaises(ValueError):
                plan.read_into(-1)

    def test_a_closed_plan_raises_before_the_library(self):
        plan = plan_of(GGUF, 2, 1)
        plan.close()
        self.assertEqual(repr(plan), "<ReadPlan closed>")
        for read in (lambda: plan.rank, lambda: plan.files, lambda: plan.tensors,
                     plan.to_json, lambda: plan.read_into(0)):
            with self.assertRaises(ClosedError):
                read()

    def test_a_plan_needs_a_layout_and_a_checkpoint(self):
        with describe_model(GGUF) as model, Checkpoint.open(GGUF) as checkpoint, \
                plan_rank(model, (2, 1, 1, 1), 1) as layout:
            with self.assertRaisesRegex(TypeError, "layout must be a LocalModelLayout"):
                read_plan(model, checkpoint)
            with self.assertRaisesRegex(TypeError, "checkpoint must be a Checkpoint"):
                read_plan(layout, GGUF)

    def test_a_checkpoint_without_the_tensors_is_a_mismatch(self):
        qwen = os.path.join(REPO, "examples", "models", "qwen3-1.7b")
        with describe_model(qwen, config_only=True) as model, Checkpoint.open(GGUF) as checkpoint, \
                plan_rank(model, (1, 1, 1, 1), 0) as layout:
            with self.assertRaises(GeneralError) as caught:
                read_plan(layout, checkpoint)
        self.assertEqual(caught.exception.code, status.EREDU_E_CHECKPOINT_MISMATCH)
        self.assertEqual(caught.exception.message, 'rank 0 materializes tensor '
                         '"model.embed_tokens.weight", which the checkpoint does not hold')


class Errors(unittest.TestCase):
    def test_describing_a_missing_path_is_an_io_error(self):
        with self.assertRaises(GeneralError) as caught:
            describe_model("/nonexistent/model")
        self.assertEqual(caught.exception.code, status.EREDU_E_IO)
        self.assertEqual(caught.exception.code, 9)
        self.assertEqual(caught.exception.name, "EREDU_E_IO")
        self.assertEqual(caught.exception.message,
                         "cannot read /nonexistent/model/config.json: No such file or directory")

    def test_opening_a_text_file_is_a_parse_error(self):
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "notes.txt")
            with open(path, "w", encoding="utf-8") as handle:
                handle.write("not a checkpoint\n")
            with self.assertRaises(GeneralError) as caught:
                Checkpoint.open(path)
        self.assertEqual(caught.exception.code, status.EREDU_E_PARSE)
        self.assertEqual(caught.exception.code, 6)
        self.assertTrue(caught.exception.message.startswith(path + ": header length "),
                        caught.exception.message)

    def test_opening_a_missing_file_is_an_io_error(self):
        with self.assertRaises(GeneralError) as caught:
            Checkpoint.open("/nonexistent/model.gguf")
        self.assertEqual(caught.exception.code, status.EREDU_E_IO)

    def test_arguments_are_checked_before_the_library(self):
        for call, error, message in [
                (lambda: describe_model(b"model.gguf"), TypeError, "path must be a str path"),
                (lambda: describe_model(3), TypeError, "path must be a str or os.PathLike"),
                (lambda: describe_model("a\0b"), ValueError, "path must not contain a NUL"),
                (lambda: describe_model("m", pad_vocab=0), ValueError,
                 "pad_vocab must be at least 1"),
                (lambda: describe_model("m", pad_vocab=-1), ValueError, "pad_vocab must be in"),
                (lambda: describe_model("m", pad_vocab=2.0), TypeError,
                 "pad_vocab must be an integer"),
                (lambda: Checkpoint.open(None), TypeError, "path must be a str or os.PathLike"),
                (lambda: Checkpoint(None), TypeError, "a Checkpoint is not built from NoneType")]:
            with self.subTest(message=message), self.assertRaisesRegex(error, message):
                call()


if __name__ == "__main__":
    unittest.main()


class ReadRank(unittest.TestCase):
    """ReadPlan.read_rank: every tensor at once, as read_into reads each."""

    def test_every_tensor_as_read_into_reads_it(self):
        with plan_of(GGUF, 2, 1) as plan:
            expected = [bytes(plan.read_into(index)) for index in range(len(plan.tensors))]
            buffers, stats = plan.read_rank()
            self.assertEqual([bytes(buffer) for buffer in buffers], expected)
            self.assertEqual((stats.tensors, stats.bytes_kept, stats.bytes_read),
                             (48, 587008, 587008))
            mine = [bytearray(len(buffer) + 3) for buffer in expected]
            same, stats = plan.read_rank(mine, threads=2, max_gap_bytes=65536)
            self.assertIs(same[0], mine[0])
            self.assertEqual([bytes(buffer[:len(want)]) for buffer, want in zip(mine, expected)],
                             expected)
            self.assertEqual((stats.bytes_read, stats.threads), (735688, 2))

    def test_errors_and_cancel(self):
        with plan_of(GGUF, 2, 1) as plan:
            with self.assertRaises(GeneralError) as raised:
                plan.read_rank([bytearray(1)])
            self.assertEqual(raised.exception.code, status.EREDU_E_INVALID_ARGUMENT)
            with self.assertRaises(GeneralError) as raised:
                plan.read_rank(progress=lambda done, total: True, request_bytes=4096)
            self.assertEqual(raised.exception.code, status.EREDU_E_CANCELLED)
            with self.assertRaises(TypeError):
                plan.read_rank([bytes(8192)] * 48)

    def test_torch_tensors_in_one_call(self):
        try:
            import torch
        except ImportError:
            self.skipTest("torch is not installed")
        from eredu.torch import load_rank
        with plan_of(GGUF, 2, 1) as plan:
            tensors, stats = load_rank(plan)
            self.assertEqual(stats.bytes_kept, 587008)
            self.assertEqual(list(tensors), [tensor.target for tensor in plan.tensors])
            output = tensors["blk.0.attn_output.weight"]
            self.assertEqual((tuple(output.shape), output.dtype), ((64, 32), torch.float32))
            self.assertEqual(output.numpy().tobytes(), bytes(plan.read_into(
                "blk.0.attn_output.weight")))
