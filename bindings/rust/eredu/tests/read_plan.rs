// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

//! Describing a model from its files, opening its checkpoint and read plans
//! (`eredu/checkpoint.h`) on examples/files/stories260K.gguf, a GGUF llama
//! model: 48 F32 tensors; 5 layers, hidden 64, 8 query heads, 4 KV heads,
//! ffn 172, vocabulary 512. The plan's text must equal what `eredu
//! read-plan` prints (tests/data/stories260K.tp2.rank1.readplan.json).

use std::ops::ControlFlow;
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::thread;

use eredu::{
    Checkpoint, DescribeOptions, ErrorCode, ModelDescription, ParallelTopology, ReadExtent,
    ReadOptions, ReadPlan, ReadTensor, ShardingPolicy,
};

const GGUF: &str = "examples/files/stories260K.gguf";

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..")
}

fn gguf() -> PathBuf {
    let path = root().join(GGUF);
    assert!(
        path.is_file(),
        "{} is missing: these tests read it",
        path.display()
    );
    path
}

/// The read plan of `rank` at tensor parallel `tp`; the description,
/// checkpoint and layout are dropped before it is returned.
fn plan_of(path: &Path, tp: u64, rank: u64, options: &DescribeOptions) -> ReadPlan {
    let model = ModelDescription::describe(path, options).unwrap();
    let checkpoint = Checkpoint::open(path).unwrap();
    let layout = model
        .plan_rank(
            ParallelTopology::tensor_parallel(tp),
            rank,
            ShardingPolicy::Require,
        )
        .unwrap();
    ReadPlan::new(&layout, &checkpoint).unwrap()
}

fn tensor_named(plan: &ReadPlan, target: &str) -> ReadTensor {
    plan.tensors()
        .into_iter()
        .find(|tensor| tensor.target == target)
        .unwrap_or_else(|| panic!("the plan reads no {target}"))
}

#[test]
fn describe_gives_the_model_of_the_file() {
    let model = ModelDescription::describe(gguf(), &DescribeOptions::default()).unwrap();
    assert_eq!(model.tensor_count(), 48);
    assert_eq!(model.global_bytes(), 1_171_200);
    assert_eq!(Checkpoint::open(gguf()).unwrap().tensor_count(), 48);
}

#[test]
fn tp2_rank1() {
    let path = gguf();
    let plan = plan_of(&path, 2, 1, &DescribeOptions::default());
    assert_eq!(plan.rank(), 1);
    assert_eq!(plan.read_bytes(), 587_008);
    assert_eq!(plan.files(), [path.to_str().unwrap()]);
    assert_eq!(plan.file_paths(), [path.as_path()]);
    let tensors = plan.tensors();
    assert_eq!(tensors.len(), 48);
    assert!(tensors.iter().all(|tensor| tensor.dtype == "F32"));
    assert_eq!(
        tensors.iter().map(|tensor| tensor.read_bytes).sum::<u64>(),
        587_008
    );
    assert_eq!(
        tensor_named(&plan, "blk.0.attn_q.weight"),
        ReadTensor {
            target: "blk.0.attn_q.weight".to_owned(),
            dtype: "F32".to_owned(),
            local_shape: vec![32, 64],
            local_bytes: 8192,
            read_bytes: 8192,
            padding_rows: 0,
            extents: vec![ReadExtent {
                file: 0,
                offset: 284_768,
                length: 8192,
                count: 1,
                stride: 8192,
                dest: 0,
                dest_stride: 8192,
            }],
        }
    );
    let output = tensor_named(&plan, "blk.0.attn_output.weight");
    assert_eq!(output.local_shape, [64, 32]);
    assert_eq!(
        output.extents,
        [ReadExtent {
            file: 0,
            offset: 309_472,
            length: 128,
            count: 64,
            stride: 256,
            dest: 0,
            dest_stride: 128,
        }]
    );
}

#[test]
fn padded_vocabulary_rows_are_not_read() {
    // 512 rows of 256 bytes (at offset 145504) padded to a multiple of 3 x 2:
    // 516, 258 per rank; rank 1 reads rows [258, 512) and pads 4.
    let options = DescribeOptions {
        config_only: false,
        pad_vocab: Some(3),
    };
    let head = tensor_named(&plan_of(&gguf(), 2, 1, &options), "output.weight");
    assert_eq!(head.local_shape, [258, 64]);
    assert_eq!(head.local_bytes, 66_048);
    assert_eq!(head.read_bytes, 65_024);
    assert_eq!(head.padding_rows, 4);
    assert_eq!(head.extents.len(), 1);
    assert_eq!(head.extents[0].offset, 211_552);
}

/// Restores the working directory when dropped, also when a check fails.
struct WorkingDirectory(PathBuf);

impl Drop for WorkingDirectory {
    fn drop(&mut self) {
        std::env::set_current_dir(&self.0).unwrap();
    }
}

#[test]
fn the_text_is_the_commands() {
    // The plan names its file as given: from the repository root, as the
    // command was run. Only this test changes the working directory; the
    // others name files by absolute paths.
    let expected =
        std::fs::read_to_string(root().join("tests/data/stories260K.tp2.rank1.readplan.json"))
            .unwrap();
    let plan = {
        let _restore = WorkingDirectory(std::env::current_dir().unwrap());
        std::env::set_current_dir(root()).unwrap();
        plan_of(Path::new(GGUF), 2, 1, &DescribeOptions::default())
    };
    assert_eq!(plan.files(), [GGUF]);
    assert_eq!(plan.to_json().unwrap(), expected);
}

#[test]
fn describing_a_missing_path_is_an_io_error() {
    let error =
        ModelDescription::describe("/nonexistent/model", &DescribeOptions::default()).unwrap_err();
    assert_eq!(error.code(), ErrorCode::Io);
    assert_eq!(error.status(), 9);
    assert_eq!(
        error.message(),
        "cannot read /nonexistent/model/config.json: No such file or directory"
    );
}

#[test]
fn opening_a_text_file_is_a_parse_error() {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("eredu-notes.txt");
    std::fs::write(&path, "not a checkpoint\n").unwrap();
    let error = Checkpoint::open(&path).unwrap_err();
    assert_eq!(error.code(), ErrorCode::Parse);
    assert_eq!(error.status(), 6);
    assert!(
        error
            .message()
            .starts_with(&format!("{}: header length ", path.display())),
        "{}",
        error.message()
    );
}

#[test]
fn a_checkpoint_without_the_tensors_is_a_mismatch() {
    let options = DescribeOptions {
        config_only: true,
        pad_vocab: None,
    };
    let model =
        ModelDescription::describe(root().join("examples/models/qwen3-1.7b"), &options).unwrap();
    let layout = model
        .plan_rank(ParallelTopology::default(), 0, ShardingPolicy::Require)
        .unwrap();
    let error = ReadPlan::new(&layout, &Checkpoint::open(gguf()).unwrap()).unwrap_err();
    assert_eq!(error.code(), ErrorCode::CheckpointMismatch);
    assert_eq!(
        error.message(),
        "rank 0 materializes tensor \"model.embed_tokens.weight\", which the checkpoint does not hold"
    );
}

#[test]
fn arguments_are_checked_before_the_library() {
    let padded = DescribeOptions {
        config_only: false,
        pad_vocab: Some(0),
    };
    let error = ModelDescription::describe(gguf(), &padded).unwrap_err();
    assert_eq!(error.code(), ErrorCode::InvalidArgument);
    assert_eq!(
        error.message(),
        "pad_vocab must be at least 1 (None: no padding)"
    );
    let error = Checkpoint::open("a\0b").unwrap_err();
    assert_eq!(error.code(), ErrorCode::InvalidArgument);
}

#[test]
fn read_tensor_fills_the_ranks_slices() {
    let path = gguf();
    let whole = plan_of(&path, 1, 0, &DescribeOptions::default());
    let halves = [0, 1].map(|rank| plan_of(&path, 2, rank, &DescribeOptions::default()));
    let target = "blk.0.attn_output.weight";
    let index = |plan: &ReadPlan| {
        plan.tensors()
            .iter()
            .position(|tensor| tensor.target == target)
            .unwrap()
    };
    let mut full = vec![0u8; 64 * 64 * 4];
    whole.read_tensor(index(&whole), &mut full).unwrap();
    // Rank r holds columns [32r, 32r + 32) of each of the 64 rows: 128 bytes
    // of every 256-byte row.
    for (rank, plan) in halves.iter().enumerate() {
        let mut local = vec![0xAAu8; 64 * 32 * 4 + 2];
        plan.read_tensor(index(plan), &mut local).unwrap();
        for row in 0..64 {
            let from = row * 256 + rank * 128;
            assert_eq!(local[row * 128..row * 128 + 128], full[from..from + 128]);
        }
        assert_eq!(local[64 * 128..], [0xAA, 0xAA]);
        let short = plan
            .read_tensor(index(plan), &mut vec![0u8; 64 * 128 - 1])
            .unwrap_err();
        assert_eq!(short.code(), ErrorCode::InvalidArgument);
        let past = plan.read_tensor(48, &mut local).unwrap_err();
        assert_eq!(past.code(), ErrorCode::InvalidArgument);
    }
}

#[test]
fn read_rank_fills_every_tensor_as_read_tensor_does() {
    let plan = plan_of(&gguf(), 2, 1, &DescribeOptions::default());
    let tensors = plan.tensors();
    let expected: Vec<Vec<u8>> = tensors
        .iter()
        .enumerate()
        .map(|(index, tensor)| {
            let mut bytes = vec![0u8; tensor.local_bytes as usize];
            plan.read_tensor(index, &mut bytes).unwrap();
            bytes
        })
        .collect();
    let mut buffers: Vec<Vec<u8>> = tensors
        .iter()
        .map(|tensor| vec![0u8; tensor.local_bytes as usize])
        .collect();
    let mut slices: Vec<&mut [u8]> = buffers.iter_mut().map(Vec::as_mut_slice).collect();
    let stats = plan.read_rank(&mut slices, ReadOptions::default()).unwrap();
    assert_eq!(buffers, expected);
    assert_eq!(
        (stats.tensors, stats.bytes_kept, stats.bytes_read),
        (48, 587_008, 587_008)
    );
    let two_threads = || {
        let mut options = ReadOptions::default();
        options.threads = 2;
        options.max_gap_bytes = 65_536;
        options
    };
    let mut slices: Vec<&mut [u8]> = buffers.iter_mut().map(Vec::as_mut_slice).collect();
    let stats = plan.read_rank(&mut slices, two_threads()).unwrap();
    assert_eq!((stats.bytes_read, stats.threads), (735_688, 2));
    let error = plan
        .read_rank(&mut slices[..47], two_threads())
        .unwrap_err();
    assert_eq!(error.code(), ErrorCode::InvalidArgument);
}

/// Zeroed buffers of every tensor of `plan`, in its order.
fn buffers_of(plan: &ReadPlan) -> Vec<Vec<u8>> {
    plan.tensors()
        .iter()
        .map(|tensor| vec![0u8; tensor.local_bytes as usize])
        .collect()
}

#[test]
fn read_rank_reports_progress_on_the_calling_thread() {
    let plan = plan_of(&gguf(), 2, 1, &DescribeOptions::default());
    assert_eq!(plan.read_bytes(), 587_008);
    let mut buffers = buffers_of(&plan);
    let caller = thread::current().id();
    for threads in [1, 2] {
        let mut calls = Vec::new();
        let mut options = ReadOptions::default().with_progress(|done, total| {
            calls.push((done, total, thread::current().id()));
            ControlFlow::Continue(())
        });
        assert!(options.has_progress());
        // 4 KiB requests: many of them, the calling thread reporting
        // after each of its own (with a helper, which may read them all
        // first, at least once at the end).
        options.request_bytes = 4096;
        options.threads = threads;
        let mut slices: Vec<&mut [u8]> = buffers.iter_mut().map(Vec::as_mut_slice).collect();
        let stats = plan.read_rank(&mut slices, options).unwrap();
        assert_eq!(stats.bytes_kept, 587_008);
        if threads == 1 {
            assert!(calls.len() > 100, "{} calls", calls.len());
        }
        assert!(calls.iter().all(|&(_, total, _)| total == 587_008));
        assert!(calls.iter().all(|&(_, _, id)| id == caller));
        assert!(
            calls.windows(2).all(|pair| pair[0].0 < pair[1].0),
            "threads {threads}: done must grow: {calls:?}"
        );
        assert_eq!(
            calls.last().map(|&(done, total, _)| (done, total)),
            Some((587_008, 587_008))
        );
    }
    assert!(!ReadOptions::default().has_progress());
    assert!(format!(
        "{:?}",
        ReadOptions::default().with_progress(|_, _| ControlFlow::Continue(()))
    )
    .contains("progress: true"));
}

#[test]
fn read_rank_progress_break_cancels() {
    let plan = plan_of(&gguf(), 2, 1, &DescribeOptions::default());
    let mut buffers = buffers_of(&plan);
    for threads in [1, 2] {
        let mut calls = Vec::new();
        let mut options = ReadOptions::default().with_progress(|done, total| {
            calls.push((done, total));
            if done >= 8192 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        options.request_bytes = 4096;
        options.threads = threads;
        let mut slices: Vec<&mut [u8]> = buffers.iter_mut().map(Vec::as_mut_slice).collect();
        let error = plan.read_rank(&mut slices, options).unwrap_err();
        assert_eq!(error.code(), ErrorCode::Cancelled);
        assert_eq!(error.name(), "EREDU_E_CANCELLED");
        assert!(error.message().contains("cancelled"), "{}", error.message());
        // Not called again once it asked to stop (with a helper thread
        // that read everything first, that may be the call at the end).
        let (last, total) = *calls.last().unwrap();
        assert!(
            (8192..=587_008).contains(&last),
            "threads {threads}: {calls:?}"
        );
        assert_eq!(total, 587_008);
        if threads == 1 {
            assert!(last < 587_008, "{calls:?}");
        }
        assert_eq!(
            calls.iter().filter(|&&(done, _)| done >= 8192).count(),
            1,
            "threads {threads}: {calls:?}"
        );
    }

    // A panic cancels the read and reaches the caller once it returns.
    let outcome = panic::catch_unwind(AssertUnwindSafe(|| {
        let options = ReadOptions::default().with_progress(|done, _| {
            panic!("progress callback failed at {done} bytes");
        });
        let mut slices: Vec<&mut [u8]> = buffers.iter_mut().map(Vec::as_mut_slice).collect();
        plan.read_rank(&mut slices, options)
    }));
    let payload = outcome.expect_err("the callback's panic reaches the caller");
    let message = payload.downcast_ref::<String>().unwrap();
    assert!(
        message.starts_with("progress callback failed at "),
        "{message}"
    );

    // The plan is fine afterwards.
    let mut slices: Vec<&mut [u8]> = buffers.iter_mut().map(Vec::as_mut_slice).collect();
    let stats = plan.read_rank(&mut slices, ReadOptions::default()).unwrap();
    assert_eq!(stats.bytes_kept, 587_008);
}

#[test]
fn model_types_and_warnings() {
    let types = eredu::model_types();
    assert_eq!(&types[..2], ["llama", "mistral"]);
    assert!(types.iter().any(|name| name == "mistral3"));
    // A folder whose index gives total_size 0 describes with one warning.
    let source = root().join("examples/models/qwen3-1.7b");
    let dir = std::env::temp_dir().join(format!("eredu-warnings-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(source.join("config.json"), dir.join("config.json")).unwrap();
    let index = std::fs::read_to_string(source.join("model.safetensors.index.json")).unwrap();
    let zeroed = index.replacen("\"total_size\": 3441149952", "\"total_size\": 0", 1);
    assert_ne!(zeroed, index);
    std::fs::write(dir.join("model.safetensors.index.json"), zeroed).unwrap();
    let plain = ModelDescription::describe(&source, &DescribeOptions::default()).unwrap();
    assert!(plain.warnings().is_empty());
    let warned = ModelDescription::describe(&dir, &DescribeOptions::default()).unwrap();
    let warnings = warned.warnings();
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(warnings.len(), 1);
    assert!(warnings[0].contains("total_size"), "{warnings:?}");
}

#[test]
fn a_checkpoint_describes_its_model_from_what_it_read() {
    let checkpoint = Checkpoint::open(gguf()).unwrap();
    let options = DescribeOptions {
        config_only: false,
        pad_vocab: Some(64),
    };
    let model = checkpoint.describe(&options).unwrap();
    let from_path = ModelDescription::describe(gguf(), &options).unwrap();
    assert_eq!(model.tensor_count(), 48);
    assert_eq!(model.global_bytes(), from_path.global_bytes());
    let layout = model
        .plan_rank(
            ParallelTopology::tensor_parallel(2),
            1,
            ShardingPolicy::Require,
        )
        .unwrap();
    assert_eq!(
        ReadPlan::new(&layout, &checkpoint).unwrap().read_bytes(),
        587_008
    );
    let padded = DescribeOptions {
        config_only: false,
        pad_vocab: Some(0),
    };
    let error = checkpoint.describe(&padded).unwrap_err();
    assert_eq!(error.code(), ErrorCode::InvalidArgument);

    let lora = root().join("examples/files/gpt2-lora/adapter_model.safetensors");
    let error = Checkpoint::open(&lora)
        .unwrap()
        .describe(&DescribeOptions::default())
        .unwrap_err();
    assert_eq!(error.code(), ErrorCode::Parse);
    assert!(
        error.message().contains("holds no configuration"),
        "{}",
        error.message()
    );
}
