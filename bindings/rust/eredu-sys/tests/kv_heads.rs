// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

//! The KV-head fields of eredu_group_new that the safe crate cannot
//! express, through the raw declarations: a per_kv_head flag other than
//! 0/1, and query units without partition units.

use std::ffi::CStr;
use std::ptr;

use eredu_sys as sys;

/// eredu_group_new on group "attn" (ATTENTION_HEADS, 8 query units) with
/// members q [16, 4] and k [4, 4] of `sharding` on axis 0, k's per_kv_head
/// set to `per_kv_head`: the status and the error message.
fn new_group(
    partition_units: Option<u64>,
    sharding: i32,
    per_kv_head: u8,
) -> (sys::eredu_status, String) {
    let q_shape = [16u64, 4];
    let k_shape = [4u64, 4];
    let member =
        |target: &'static CStr, shape: &[u64; 2], per_kv_head: u8| sys::eredu_member_desc {
            struct_size: std::mem::size_of::<sys::eredu_member_desc>() as u32,
            target: target.as_ptr(),
            shape: shape.as_ptr(),
            ndim: 2,
            has_dtype: 0,
            dtype: 0,
            sharding: sharding as sys::eredu_sharding_kind,
            axis: 0,
            segments: ptr::null(),
            segment_count: 0,
            per_kv_head,
            has_expert_axis: 0,
            expert_axis: 0,
        };
    let q = member(c"q", &q_shape, 0);
    let k = member(c"k", &k_shape, per_kv_head);
    let members = [&q as *const _, &k as *const _];
    let desc = sys::eredu_group_desc {
        struct_size: std::mem::size_of::<sys::eredu_group_desc>() as u32,
        role: sys::EREDU_ROLE_ATTENTION_HEADS as sys::eredu_role,
        name: c"attn".as_ptr(),
        has_partition_units: u8::from(partition_units.is_some()),
        partition_units: partition_units.unwrap_or(0),
        scope: ptr::null(),
        has_query_units: 1,
        query_units: 8,
        has_vocab_pad_multiple: 0,
        vocab_pad_multiple: 0,
    };
    let mut group = ptr::null_mut();
    let mut error = ptr::null_mut();
    // SAFETY: every pointer is valid for the call.
    let status =
        unsafe { sys::eredu_group_new(&desc, members.as_ptr(), 2, &mut group, &mut error) };
    // SAFETY: the group (NULL on failure) and the error (NULL on success)
    // are owned here; the message is read before the error is freed.
    unsafe {
        sys::eredu_group_free(group);
        let message = if error.is_null() {
            String::new()
        } else {
            CStr::from_ptr(sys::eredu_error_message(error))
                .to_str()
                .unwrap()
                .to_owned()
        };
        sys::eredu_error_free(error);
        (status, message)
    }
}

#[test]
fn the_raw_fields_build_a_grouped_query_group() {
    let (status, message) = new_group(Some(2), sys::EREDU_SHARDING_PARTITIONED, 1);
    assert_eq!(status, sys::EREDU_OK, "{message}");
}

#[test]
fn a_per_kv_head_flag_other_than_0_or_1_is_an_invalid_argument() {
    assert_eq!(
        new_group(Some(2), sys::EREDU_SHARDING_PARTITIONED, 2),
        (
            sys::EREDU_E_INVALID_ARGUMENT,
            "flag members[1]->per_kv_head is 2, expected 0 or 1".to_owned()
        )
    );
}

#[test]
fn query_units_without_partition_units_is_an_invalid_group() {
    assert_eq!(
        new_group(None, sys::EREDU_SHARDING_EQUAL, 0),
        (
            sys::EREDU_E_INVALID_GROUP,
            "parallel parameter group \"attn\": query_units needs partition_units".to_owned()
        )
    );
}
