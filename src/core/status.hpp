// Status codes of design/errors.md; numbers are stable forever.
#pragma once

#include <cstdint>
#include <string_view>

namespace eredu {

enum class Status : std::int32_t {
  Ok = 0,
  NullArgument = 1,
  InvalidArgument = 2,
  OutOfMemory = 3,
  BufferTooSmall = 4,
  NotFound = 5,
  Parse = 6,
  CorruptData = 7,
  UnsupportedVersion = 8,
  Io = 9,
  UnsupportedModel = 10,
  CheckpointMismatch = 11,
  Internal = 99,
  InvalidGroup = 100,
  InvalidTensor = 101,
  ZeroAxis = 200,
  WorldSizeOverflow = 201,
  RankOutOfRange = 202,
  CoordinateOutOfRange = 203,
  SubgroupIdentity = 204,
  MissingLayerCount = 205,
  MissingExpertCount = 206,
  ZeroPartitions = 207,
  PartitionOutOfRange = 208,
  EmptyPartition = 209,
  PartitionOverflow = 210,
  UnsupportedSchemaVersion = 300,
  EmptyUnitId = 301,
  ZeroSizedUnit = 302,
  DuplicateUnitId = 303,
  ByteTotalOverflow = 304,
  BudgetExceeded = 305,
  ContradictoryAssignment = 306,
  ZeroPrefetchDepth = 307,
  ZeroHostLookahead = 400,
  ZeroQueueCapacity = 401,
  HostDisabledControls = 402,
  ZeroParameterBankScratchLimit = 403,
  ZeroParameterBankPrefillTarget = 404,
  ParameterBankPrefillTargetExceedsScratch = 405,
  ZeroCapacity = 500,
  UnorderedPending = 501,
  CapacityExceeded = 502,
  NoPendingUnit = 503,
  OutOfOrder = 504,
  ZeroCachedShards = 600,
  InvalidInvocationLimits = 601,
  ReplicatedParallelTopology = 602,
  ConflictingCompletionPolicy = 603,
  OrphanedModelCompletion = 604,
  ZeroEmbeddedDraftCapacity = 605,
  UnsupportedDraftingPlan = 606,
  Completion = 607,
  Quantization = 608,
  InvalidFormat = 700,
  InvalidBindingName = 800,
  InvalidCheckpointKey = 801,
  ZeroSizedBinding = 802,
  InvalidCompletionPolicy = 900,
};

/// The stable symbolic name ("EREDU_E_INVALID_GROUP"), or "EREDU_E_UNKNOWN"
/// for a value this library does not know. Never null; static storage.
std::string_view status_name(std::int32_t code) noexcept;

}  // namespace eredu
