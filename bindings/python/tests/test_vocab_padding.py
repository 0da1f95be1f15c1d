# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The eredu authors

"""Vocabulary padding through the Python API (docs/planning.md, "Vocabulary
padding"): a head of a replicated norm [4] and an 11-row BF16 lm_head padded
to a multiple of 2; at TP 8 the rows are padded to 16, 2 per rank, and the
last ranks allocate rows past the checkpoint's. The misuse the library
rejects."""
import unittest

from eredu import (Dtype, GeneralError, GroupScope, MemberSharding, ModelDescription, ParallelPlanError,
                   ParameterGroupSpec, ParameterMemberSpec, ParameterRole, PlacementKind,
                   TensorPlacement, plan_rank, status)

NORM = ParameterMemberSpec("norm", [4], MemberSharding.replicated(), dtype=Dtype.BF16)
LM_HEAD = ParameterMemberSpec("lm_head", [11, 4], MemberSharding.balanced(0), dtype=Dtype.BF16)


def head(role=ParameterRole.VOCABULARY, **arguments):
    return ParameterGroupSpec.new("head", role, [NORM, LM_HEAD], scope=GroupScope.output_head(),
                                  **arguments)


class VocabPadding(unittest.TestCase):
    def test_the_multiple_reads_back(self):
        with head(vocab_pad_multiple=2) as group:
            self.assertEqual(group.vocab_pad_multiple(), 2)
            self.assertEqual(group.members(), [NORM, LM_HEAD])
        with head() as group:
            self.assertIsNone(group.vocab_pad_multiple())

    def test_tp8_allocates_two_rows_per_rank_and_reads_the_eleven(self):
        with head(vocab_pad_multiple=2) as group, ModelDescription.from_groups([group]) as model:
            for rank, start, end, padding in ((0, 0, 2, 0), (5, 10, 11, 1), (7, 11, 11, 2)):
                with self.subTest(rank=rank), plan_rank(model, (8, 1, 1, 1), rank) as layout:
                    entry = layout.tensor("lm_head")
                    self.assertEqual(entry.placement, TensorPlacement(
                        PlacementKind.RANGE, axis=0, start=start, end=end))
                    self.assertEqual(entry.local_shape, (2, 4))
                    self.assertEqual(entry.padding_rows, padding)
                    self.assertEqual(layout.padding_rows("lm_head"), padding)
                    self.assertEqual(entry.local_bytes, 16)
                    self.assertEqual(layout.tensor("norm").padding_rows, 0)
                    self.assertEqual(layout.to_json().count("padding_rows"), int(padding > 0))

    def test_a_loaded_model_pads_and_reads_back(self):
        with head() as group, \
                ModelDescription.from_groups([group], name="tiny", layers=2) as model, \
                model.pad_vocab(2) as padded, plan_rank(padded, (8, 1, 1, 1), 7) as layout:
            self.assertEqual(model.info(), ("tiny", 2, None))
            self.assertEqual(layout.padding_rows("lm_head"), 2)
            self.assertEqual(ModelDescription.from_json(padded.to_json()).to_json(),
                             padded.to_json())
            self.assertIn('"vocab_pad_multiple":2', padded.to_json())
            self.assertNotIn("vocab_pad_multiple", model.to_json())
            with self.assertRaises(GeneralError) as caught:
                model.pad_vocab(0)
            self.assertEqual(caught.exception.message,
                             "the vocabulary padding multiple must be at least 1")

    def test_misuse(self):
        with self.assertRaises(ParallelPlanError) as caught:
            head(vocab_pad_multiple=0)
        self.assertEqual(caught.exception.code, status.EREDU_E_INVALID_GROUP)
        self.assertEqual(caught.exception.message,
                         'parallel parameter group "head": vocab_pad_multiple must be at least 1')

        with self.assertRaises(ParallelPlanError) as caught:
            head(role=ParameterRole.REPLICATED, vocab_pad_multiple=2)
        self.assertEqual(caught.exception.message,
                         'parallel parameter group "head": vocab_pad_multiple needs role '
                         "vocabulary")

        with self.assertRaises(ValueError):
            head(vocab_pad_multiple=-1)


if __name__ == "__main__":
    unittest.main()
