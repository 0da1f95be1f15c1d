#include "interchange/groups_json.hpp"

#include <fmt/format.h>
#include <simdjson.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <deque>
#include <filesystem>
#include <iterator>
#include <new>
#include <optional>
#include <system_error>
#include <unordered_set>
#include <utility>
#include <vector>

#ifdef __linux__
#include <sys/mman.h>
#include <unistd.h>
#endif
#ifdef __GLIBC__
#include <malloc.h>
#endif
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "core/text.hpp"
#include "format/ggml.hpp"
#include "interchange/format_declaration.hpp"
#include "model/expand.hpp"

namespace eredu {
namespace {

namespace od = simdjson::ondemand;

constexpr std::string_view kSchema = "eredu.groups.v1";
constexpr std::string_view kSchemaPrefix = "eredu.groups.v";

// Nesting bound for content that is only validated (unknown fields, rejected
// values); simdjson's own default. Bounds the walk's memory.
constexpr std::uint32_t kMaxDepth = 1024;

// A JSON pointer as a chain of nodes owned by the readers (stack frames or
// the validator's deque); rendered only for messages.
struct Path {
  const Path* parent = nullptr;
  std::string_view key;
  std::uint64_t index = 0;
  bool is_index = false;

  Path field(std::string_view name) const { return Path{this, name, 0, false}; }
  Path item(std::uint64_t position) const { return Path{this, {}, position, true}; }

  std::string str() const {
    std::vector<const Path*> chain;  // iterative: paths can be kMaxDepth long
    for (const Path* node = this; node->parent != nullptr; node = node->parent) {
      chain.push_back(node);
    }
    std::string out;
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
      out += '/';
      if ((*it)->is_index) {
        out += std::to_string((*it)->index);
        continue;
      }
      append_pointer_token(out, (*it)->key);
    }
    return out;
  }
};

Error syntax_error(const Path& at, std::string_view what) {
  if (at.parent == nullptr) return Error{Status::Parse, fmt::format("invalid JSON: {}", what)};
  return Error{Status::Parse, fmt::format("invalid JSON at {}: {}", at.str(), what)};
}

Error syntax_error(const Path& at, simdjson::error_code code) {
  if (code == simdjson::MEMALLOC) {
    return Error{Status::OutOfMemory, "out of memory while parsing JSON"};
  }
  return syntax_error(at, simdjson::error_message(code));
}

// The first structure error of one object. Fields are checked in schema
// order (rank), not text order; among equal ranks the first noted wins.
class FirstError {
 public:
  void note(unsigned rank, std::string message) {
    if (!message_ || rank < rank_) {
      rank_ = rank;
      message_ = std::move(message);
    }
  }
  void note(unsigned rank, std::optional<std::string> message) {
    if (message) note(rank, std::move(*message));
  }
  explicit operator bool() const { return message_.has_value(); }
  std::optional<std::string> take() { return std::move(message_); }

 private:
  unsigned rank_ = 0;
  std::optional<std::string> message_;
};

std::string_view describe(od::json_type type) {
  switch (type) {
    case od::json_type::array:
      return "an array";
    case od::json_type::object:
      return "an object";
    case od::json_type::number:
      return "a number";
    case od::json_type::string:
      return "a string";
    case od::json_type::boolean:
      return "a boolean";
    case od::json_type::null:
      return "null";
  }
  return "a value";
}

std::string missing(const Path& path) {
  return fmt::format("{}: required field is missing or null", path.str());
}

std::string_view trim_token(std::string_view token) {
  while (!token.empty() && (token.back() == ' ' || token.back() == '\t' || token.back() == '\n' ||
                            token.back() == '\r')) {
    token.remove_suffix(1);
  }
  return token;
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// RFC 8259 number grammar; simdjson On-Demand checks a number only when it
// converts it, and integers are read from the raw token instead.
bool is_json_number(std::string_view token) {
  std::size_t i = 0;
  const std::size_t n = token.size();
  auto digits = [&] {
    const std::size_t start = i;
    while (i < n && is_digit(token[i])) ++i;
    return i > start;
  };
  if (i < n && token[i] == '-') ++i;
  if (i < n && token[i] == '0') {
    ++i;
  } else if (!digits()) {
    return false;
  }
  if (i < n && token[i] == '.') {
    ++i;
    if (!digits()) return false;
  }
  if (i < n && (token[i] == 'e' || token[i] == 'E')) {
    ++i;
    if (i < n && (token[i] == '+' || token[i] == '-')) ++i;
    if (!digits()) return false;
  }
  return i == n;
}

// A JSON string's text, read straight from the input when it holds no
// escape (`raw` points just past the opening quote). Escapes are left to
// simdjson, whose string buffer then holds the only copy. UTF-8 and raw
// control characters were checked for the whole input by stage 1; the
// latter are checked again here, as the scan finds them anyway.
struct RawString {
  enum class Kind { Plain, Escaped, Control };
  Kind kind = Kind::Plain;
  std::string_view text;  // for Plain: the bytes between the quotes
};

// The first quote, backslash or control character from `p` on. Reads whole
// blocks past it, which stay inside the input's padding: the closing quote
// of a string is always inside the document (stage 1 checked that).
const char* find_string_end(const char* p) {
#if defined(__SSE2__)
  const __m128i quote = _mm_set1_epi8('"');
  const __m128i backslash = _mm_set1_epi8('\\');
  const __m128i control_max = _mm_set1_epi8(0x1f);
  while (true) {
    const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const __m128i control = _mm_cmpeq_epi8(_mm_min_epu8(bytes, control_max), bytes);
    const __m128i hits = _mm_or_si128(
        _mm_or_si128(_mm_cmpeq_epi8(bytes, quote), _mm_cmpeq_epi8(bytes, backslash)), control);
    const auto mask = static_cast<unsigned>(_mm_movemask_epi8(hits));
    if (mask != 0) return p + std::countr_zero(mask);
    p += sizeof hits;
  }
#else
  if constexpr (std::endian::native == std::endian::little) {
    constexpr std::uint64_t kOnes = 0x0101010101010101u;
    constexpr std::uint64_t kHigh = 0x8080808080808080u;
    while (true) {
      std::uint64_t word = 0;
      std::memcpy(&word, p, sizeof word);
      const std::uint64_t quote = word ^ (kOnes * '"');
      const std::uint64_t backslash = word ^ (kOnes * '\\');
      // The high bit of the first byte that is zero (quote, backslash) or
      // below 0x20 is set; later bytes may be flagged falsely.
      const std::uint64_t hits = (((quote - kOnes) & ~quote) | ((backslash - kOnes) & ~backslash) |
                                  ((word - kOnes * 0x20) & ~word)) &
                                 kHigh;
      if (hits != 0) return p + std::countr_zero(hits) / 8;
      p += sizeof word;
    }
  }
  while (*p != '"' && *p != '\\' && static_cast<unsigned char>(*p) >= 0x20) ++p;
  return p;
#endif
}

RawString scan_raw_string(const char* raw) {
  const char* end = find_string_end(raw);
  if (*end == '"')
    return RawString{RawString::Kind::Plain, {raw, static_cast<std::size_t>(end - raw)}};
  if (*end == '\\') return RawString{RawString::Kind::Escaped, {}};
  return RawString{RawString::Kind::Control, {}};
}

Result<od::json_type> type_of(od::value& value, const Path& path) {
  od::json_type type{};
  if (auto code = value.type().get(type)) return outcome::failure(syntax_error(path, code));
  return type;
}

// The text of the string `value` (known to be a string), consuming it. Views
// point into the input or, for strings with escapes, the parser's buffer.
Result<std::string_view> string_text(od::value& value, const Path& path) {
  const RawString scanned = scan_raw_string(value.raw_json_token().data() + 1);
  if (scanned.kind == RawString::Kind::Control) {
    return outcome::failure(syntax_error(path, simdjson::UNESCAPED_CHARS));
  }
  if (scanned.kind == RawString::Kind::Plain) {
    od::raw_json_string raw;  // consumes the value, as get_string() would
    if (auto code = value.get_raw_json_string().get(raw)) {
      return outcome::failure(syntax_error(path, code));
    }
    return scanned.text;
  }
  std::string_view text;
  if (auto code = value.get_string().get(text)) return outcome::failure(syntax_error(path, code));
  return text;
}

// The unescaped key of `field`, compared without unescaping when it has no
// escape. Views live as long as string_text's.
Result<std::string_view> key_text(od::field& field, const Path& path) {
  const RawString scanned = scan_raw_string(field.key().raw());
  if (scanned.kind == RawString::Kind::Plain) return scanned.text;
  if (scanned.kind == RawString::Kind::Control) {
    return outcome::failure(syntax_error(path, simdjson::UNESCAPED_CHARS));
  }
  std::string_view key;
  if (auto code = field.unescaped_key().get(key)) {
    return outcome::failure(syntax_error(path, code));
  }
  return key;
}

// Checks a scalar that On-Demand would otherwise skip unchecked.
Result<void> validate_scalar(od::value& value, od::json_type type, const Path& path) {
  switch (type) {
    case od::json_type::string: {
      EREDU_TRY(string_text(value, path));
      return outcome::success();
    }
    case od::json_type::number: {
      const std::string_view token = trim_token(value.raw_json_token());
      if (!is_json_number(token)) {
        return outcome::failure(syntax_error(path, fmt::format("invalid number {}", token)));
      }
      return outcome::success();
    }
    case od::json_type::boolean: {
      bool flag = false;
      if (value.get_bool().get(flag) != simdjson::SUCCESS) {
        return outcome::failure(syntax_error(path, "invalid literal"));
      }
      return outcome::success();
    }
    case od::json_type::null: {
      bool is_null = false;
      if (value.is_null().get(is_null) != simdjson::SUCCESS || !is_null) {
        return outcome::failure(syntax_error(path, "invalid literal"));
      }
      return outcome::success();
    }
    case od::json_type::object:
    case od::json_type::array:
      break;
  }
  return outcome::success();
}

// An object or array being validated: its pointer (children point here),
// its iterator, and the keys seen so far.
struct OpenContainer {
  Path path;
  bool is_object = false;
  bool started = false;  // an element was visited; advance before the next
  std::uint64_t next_index = 0;
  od::object_iterator field;
  od::object_iterator fields_end;
  od::array_iterator item;
  od::array_iterator items_end;
  std::unordered_set<std::string_view> keys;
};

// Checks a scalar, or opens a container on `stack` (deque: stable addresses).
Result<void> visit(od::value& value, const Path& path, std::deque<OpenContainer>& stack) {
  EREDU_TRY(type, type_of(value, path));
  if (type != od::json_type::object && type != od::json_type::array) {
    return validate_scalar(value, type, path);
  }
  if (stack.size() >= kMaxDepth) {
    return outcome::failure(
        syntax_error(path, fmt::format("nested deeper than {} levels", kMaxDepth)));
  }
  OpenContainer& open = stack.emplace_back();
  open.path = path;
  open.is_object = type == od::json_type::object;
  simdjson::error_code code = simdjson::SUCCESS;
  if (open.is_object) {
    od::object object;
    code = value.get_object().get(object);
    if (!code) code = object.begin().get(open.field);
    if (!code) code = object.end().get(open.fields_end);
  } else {
    od::array array;
    code = value.get_array().get(array);
    if (!code) code = array.begin().get(open.item);
    if (!code) code = array.end().get(open.items_end);
  }
  if (code) return outcome::failure(syntax_error(path, code));
  return outcome::success();
}

// Walks a value the loader does not use, so that syntax errors and
// duplicate keys inside it are still found. Iterative, so that nesting costs
// heap rather than stack; bounded by kMaxDepth.
Result<void> validate(od::value value, const Path& path) {
  EREDU_TRY(type, type_of(value, path));
  if (type != od::json_type::object && type != od::json_type::array) {
    return validate_scalar(value, type, path);
  }
  std::deque<OpenContainer> stack;
  EREDU_TRY(visit(value, path, stack));
  while (!stack.empty()) {
    OpenContainer& top = stack.back();
    if (top.is_object) {
      if (top.started) ++top.field;
      top.started = true;
      if (!(top.field != top.fields_end)) {
        stack.pop_back();
        continue;
      }
      od::field field;
      if (auto code = (*top.field).get(field)) {
        return outcome::failure(syntax_error(top.path, code));
      }
      EREDU_TRY(key, key_text(field, top.path));
      const Path child = top.path.field(key);
      if (!top.keys.insert(key).second) {
        return outcome::failure(syntax_error(child, "duplicate key"));
      }
      EREDU_TRY(visit(field.value(), child, stack));
    } else {
      if (top.started) ++top.item;
      top.started = true;
      if (!(top.item != top.items_end)) {
        stack.pop_back();
        continue;
      }
      od::value item;
      if (auto code = (*top.item).get(item)) {
        return outcome::failure(syntax_error(top.path, code));
      }
      EREDU_TRY(visit(item, top.path.item(top.next_index++), stack));
    }
  }
  return outcome::success();
}

// What null means where a value is read: an absent object field, or a
// value of the wrong type (array elements).
enum class Null { Absent, Rejected };

// True when `value` has the `wanted` type. Otherwise false, with the type
// noted in `error` at `rank` (unless it is an absent null), after validating
// the value.
Result<bool> expect(od::value& value, od::json_type wanted, std::string_view wanted_text,
                    const Path& path, FirstError& error, unsigned rank, Null null) {
  EREDU_TRY(type, type_of(value, path));
  if (type == wanted) return true;
  if (type == od::json_type::null && null == Null::Absent) {
    EREDU_TRY(validate(value, path));
    return false;
  }
  error.note(rank,
             fmt::format("{}: expected {}, found {}", path.str(), wanted_text, describe(type)));
  EREDU_TRY(validate(value, path));
  return false;
}

Result<std::optional<std::string_view>> read_string(od::value value, const Path& path,
                                                    FirstError& error, unsigned rank) {
  EREDU_TRY(is_string,
            expect(value, od::json_type::string, "a string", path, error, rank, Null::Absent));
  if (!is_string) return std::optional<std::string_view>{};
  EREDU_TRY(text, string_text(value, path));
  return std::optional<std::string_view>{text};
}

// Integers are plain JSON integer tokens (no fraction, exponent or minus)
// that fit 64 bits; the raw token is checked, never a converted double.
Result<std::optional<std::uint64_t>> read_uint(od::value value, const Path& path, FirstError& error,
                                               unsigned rank, Null null) {
  EREDU_TRY(is_number, expect(value, od::json_type::number, "a non-negative integer", path, error,
                              rank, null));
  if (!is_number) return std::optional<std::uint64_t>{};
  const std::string_view token = trim_token(value.raw_json_token());
  if (!is_json_number(token)) {
    return outcome::failure(syntax_error(path, fmt::format("invalid number {}", token)));
  }
  std::uint64_t result = 0;
  for (char c : token) {
    if (!is_digit(c)) {
      error.note(rank,
                 fmt::format("{}: expected a non-negative integer, found {}", path.str(), token));
      return std::optional<std::uint64_t>{};
    }
    if (__builtin_mul_overflow(result, 10u, &result) ||
        __builtin_add_overflow(result, static_cast<std::uint64_t>(c - '0'), &result)) {
      error.note(rank, fmt::format("{}: integer {} does not fit 64 bits", path.str(), token));
      return std::optional<std::uint64_t>{};
    }
  }
  return std::optional<std::uint64_t>{result};
}

// Calls `on_field(index, value, path)` for each key found in `names`; unknown
// keys are noted in `error` at rank 0 and validated. A repeated key is fatal.
template <std::size_t N, class OnField>
Result<void> for_each_field(od::value value, const Path& path,
                            const std::array<std::string_view, N>& names, FirstError& error,
                            OnField&& on_field) {
  static_assert(N <= 32);
  od::object object;
  if (auto code = value.get_object().get(object)) return outcome::failure(syntax_error(path, code));
  std::uint32_t seen = 0;
  // Owned: the input under the root object is released while it is read.
  std::unordered_set<std::string> unknown;  // allocates only for unknown keys
  for (auto result : object) {
    od::field field;
    if (auto code = std::move(result).get(field)) return outcome::failure(syntax_error(path, code));
    // A known name (no quote, backslash or control character in it) right
    // before the closing quote is that key; anything else is read in full.
    const char* raw = field.key().raw();
    std::size_t index = 0;
    while (index < N && !(std::memcmp(raw, names[index].data(), names[index].size()) == 0 &&
                          raw[names[index].size()] == '"')) {
      ++index;
    }
    std::string_view key;
    if (index == N) {
      EREDU_TRY(text, key_text(field, path));
      key = text;
      index = 0;
      while (index < N && names[index] != key) ++index;
    }
    if (index < N) {
      // The static name, not a view into the input (see release_consumed).
      const Path child = path.field(names[index]);
      if ((seen & (1u << index)) != 0)
        return outcome::failure(syntax_error(child, "duplicate key"));
      seen |= 1u << index;
      EREDU_TRY(on_field(index, field.value(), child));
    } else {
      const Path child = path.field(key);
      if (!unknown.emplace(key).second) {
        return outcome::failure(syntax_error(child, "duplicate key"));
      }
      error.note(0, fmt::format("{}: unknown field", child.str()));
      EREDU_TRY(validate(field.value(), child));
    }
  }
  return outcome::success();
}

// Calls `on_item(value, path)` for each element of an array.
template <class OnItem>
Result<void> for_each_item(od::value value, const Path& path, OnItem&& on_item) {
  od::array array;
  if (auto code = value.get_array().get(array)) return outcome::failure(syntax_error(path, code));
  std::uint64_t position = 0;
  for (auto result : array) {
    od::value item;
    if (auto code = std::move(result).get(item)) return outcome::failure(syntax_error(path, code));
    EREDU_TRY(on_item(item, path.item(position++)));
  }
  return outcome::success();
}

bool is_segment_kind(ShardingKind kind) {
  return kind == ShardingKind::PartitionedSegments || kind == ShardingKind::Segmented;
}

// The document followed by simdjson's padding. On Linux in pages of its own:
// release_consumed hands them back while the document is read, and unmapping
// them leaves malloc as it was (freeing a large malloc'ed block raises
// glibc's mmap threshold and leaves the heap laid out differently for the
// next load).
class PaddedInput {
 public:
  PaddedInput() = default;
  PaddedInput(const PaddedInput&) = delete;
  PaddedInput& operator=(const PaddedInput&) = delete;
  ~PaddedInput() { reset(); }

  // False when out of memory. The padding reads as zeros.
  bool allocate(std::size_t size) {
    reset();
    if (size > SIZE_MAX - simdjson::SIMDJSON_PADDING) return false;
    const std::size_t capacity = size + simdjson::SIMDJSON_PADDING;
#ifdef __linux__
    void* pages =
        mmap(nullptr, capacity, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (pages == MAP_FAILED) return false;
    data_ = static_cast<char*>(pages);
#else
    data_ = new (std::nothrow) char[capacity];
    if (data_ == nullptr) return false;
    std::memset(data_ + size, 0, simdjson::SIMDJSON_PADDING);
#endif
    size_ = size;
    return true;
  }

  void reset() {
    if (data_ == nullptr) return;
#ifdef __linux__
    munmap(data_, size_ + simdjson::SIMDJSON_PADDING);
#else
    delete[] data_;
#endif
    data_ = nullptr;
    size_ = 0;
  }

  char* data() const { return data_; }
  std::size_t size() const { return size_; }

 private:
  char* data_ = nullptr;
  std::size_t size_ = 0;
};

// Reads the file at `path` into `input` the way simdjson's
// padded_string::load does, with its error codes; the reason of an IO_ERROR
// is left in errno.
simdjson::error_code read_file(const std::string& path, PaddedInput& input) {
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) return simdjson::IO_ERROR;
  if (std::fseek(file, 0, SEEK_END) < 0) {
    std::fclose(file);
    return simdjson::IO_ERROR;
  }
  const long length = std::ftell(file);
  if (length < 0 || length == LONG_MAX) {
    std::fclose(file);
    return simdjson::IO_ERROR;
  }
  if (!input.allocate(static_cast<std::size_t>(length))) {
    std::fclose(file);
    return simdjson::MEMALLOC;
  }
  std::rewind(file);
  const std::size_t read = std::fread(input.data(), 1, input.size(), file);
  if (std::fclose(file) != 0 || read != input.size()) return simdjson::IO_ERROR;
  return simdjson::SUCCESS;
}

// A member's `format` declaration, by member position in its group.
struct MemberFormat {
  std::size_t member = 0;
  FormatDeclaration declaration;
};

// Streams the document once into the specs, keeping the first structure
// error of the top level, of `model` and of `groups` apart so they can be
// reported in the §1 order after the whole text proved to be valid JSON.
class Loader {
 public:
  /// Reads `text` into the specs and reports steps 1 to 3; the parser and
  /// every view into `text` are gone when it returns, so the caller can free
  /// `text` before `build`.
  Result<void> parse(const PaddedInput& text);
  /// Step 4: builds the model from the specs.
  Result<std::shared_ptr<const ModelDescription>> build() &&;

 private:
  Result<void> read_root(od::document& document);
  Result<void> read_model(od::value value, const Path& path);
  Result<void> read_groups(od::value value, const Path& path);
  Result<void> read_group(od::value value, const Path& path);
  Result<void> read_member(od::value value, const Path& path, FirstError& group_error);
  Result<std::optional<MemberSharding>> read_sharding(od::value value, const Path& path,
                                                      FirstError& member_error);
  Result<GroupScope> read_scope(od::value value, const Path& path, FirstError& group_error);
  Result<std::optional<FormatDeclaration>> read_format(od::value value, const Path& path,
                                                       FirstError& member_error);
  Result<void> check_schema() const;

  void release_consumed(od::value& value);
  Result<std::shared_ptr<const ModelDescription>> build_model();
  Result<ParameterGroupSpec> expand_formats(ModelBuilder& builder, std::size_t index,
                                            ParameterGroupSpec group,
                                            std::vector<MemberFormat> formats) const;

  std::optional<std::string> schema_;
  // The part of the input not yet handed back by release_consumed.
  std::uintptr_t unreleased_ = 0;
  std::uintptr_t input_end_ = 0;
  std::size_t input_size_ = 0;
  FirstError top_error_;
  FirstError model_error_;
  FirstError groups_error_;
  bool groups_seen_ = false;
  ModelInfo info_;
  std::vector<ParameterGroupSpec> groups_;
  // The `format` declarations of the groups that have any, by group index
  // (ascending); empty for descriptions without formats.
  std::vector<std::pair<std::size_t, std::vector<MemberFormat>>> formats_;
  std::optional<Error> group_build_error_;  // stops building further groups
  // Scratch buffers reused for every member, so specs get exact-size storage.
  std::vector<ParameterMemberSpec> members_scratch_;
  std::vector<std::uint64_t> shape_scratch_;
  std::vector<IndexRange> segments_scratch_;
  std::vector<MemberFormat> formats_scratch_;
};

Result<void> Loader::parse(const PaddedInput& text) {
  const Path root;
  unreleased_ = reinterpret_cast<std::uintptr_t>(text.data());
  input_end_ = unreleased_ + text.size();
  input_size_ = text.size();
  od::parser parser;
  od::document document;
  const simdjson::padded_string_view view(text.data(), text.size(),
                                          text.size() + simdjson::SIMDJSON_PADDING);
  if (auto code = parser.iterate(view).get(document)) {
    return outcome::failure(syntax_error(root, code));
  }
  EREDU_TRY(read_root(document));
  EREDU_TRY(check_schema());
  for (FirstError* error : {&top_error_, &model_error_, &groups_error_}) {
    if (*error) return fail(Status::Parse, *error->take());
  }
  return outcome::success();
}

Result<std::shared_ptr<const ModelDescription>> Loader::build() && {
  auto model = build_model();
  std::vector<ParameterGroupSpec>().swap(groups_);
#ifdef __GLIBC__
  // glibc keeps freed heap resident, and freeing the parser's buffers has
  // raised its mmap threshold, so that the builder's scratch would otherwise
  // stay resident as holes in the heap next to the model.
  constexpr std::size_t kTrimFrom = std::size_t{1} << 20;  // bytes of input
  if (input_size_ >= kTrimFrom) malloc_trim(0);
#endif
  return model;
}

Result<std::shared_ptr<const ModelDescription>> Loader::build_model() {
  EREDU_TRY(builder, ModelBuilder::create(std::move(info_)));
  auto formats = formats_.begin();
  for (std::size_t index = 0; index < groups_.size(); ++index) {
    ParameterGroupSpec& group = groups_[index];
    if (formats != formats_.end() && formats->first == index) {
      EREDU_TRY(expanded,
                expand_formats(builder, index, std::move(group), std::move(formats->second)));
      ++formats;
      EREDU_TRY(builder.add_group(std::move(expanded)));
    } else {
      EREDU_TRY(builder.add_group(std::move(group)));
    }
  }
  if (group_build_error_) return outcome::failure(std::move(*group_build_error_));
  return std::move(builder).finish();
}

// Step 4 for group `index`, which has `format` members (interchange §1): its
// scope, then every format's construction in member order (the message
// locates the format by its JSON pointer), then the seed's expansion.
Result<ParameterGroupSpec> Loader::expand_formats(ModelBuilder& builder, std::size_t index,
                                                  ParameterGroupSpec group,
                                                  std::vector<MemberFormat> formats) const {
  EREDU_TRY(builder.check_scope(group));
  std::vector<std::optional<LinearFormatSpec>> specs(group.members().size());
  for (const MemberFormat& format : formats) {
    auto spec = construct_linear_format(format.declaration);
    if (!spec) {
      const Path root;
      const Path groups = root.field("groups");
      const Path group_at = groups.item(index);
      const Path members = group_at.field("members");
      const Path member = members.item(format.member);
      return failf(Status::InvalidFormat, "{}: {}", member.field("format").str(),
                   spec.error().message);
    }
    specs[format.member] = std::move(spec).value();
  }
  std::size_t position = 0;
  return expand_linear_format_group(
      group, [&](const ParameterMemberSpec&) -> Result<std::optional<LinearFormatSpec>> {
        return specs[position++];
      });
}

Result<void> Loader::read_root(od::document& document) {
  const Path root;
  od::json_type type{};
  if (auto code = document.type().get(type)) return outcome::failure(syntax_error(root, code));
  if (type != od::json_type::object) {
    return fail(Status::Parse, "an eredu.groups.v1 document must be a JSON object");
  }
  od::value value;
  if (auto code = document.get_value().get(value)) {
    return outcome::failure(syntax_error(root, code));
  }
  static constexpr std::array<std::string_view, 3> kNames{"schema", "model", "groups"};
  EREDU_TRY(
      for_each_field(value, root, kNames, top_error_,
                     [&](std::size_t index, od::value field, const Path& path) -> Result<void> {
                       switch (index) {
                         case 0: {
                           // Step 2 judges the schema; here it only has to be read.
                           FirstError ignored;
                           EREDU_TRY(text, read_string(field, path, ignored, 0));
                           if (text) schema_.emplace(*text);
                           return outcome::success();
                         }
                         case 1:
                           return read_model(field, path);
                         default:
                           return read_groups(field, path);
                       }
                     }));
  // On-Demand stops after the root value; anything after it is an error.
  const char* location = nullptr;
  auto code = document.current_location().get(location);
  if (code == simdjson::SUCCESS) {
    return outcome::failure(syntax_error(root, "trailing content after the document"));
  }
  if (code != simdjson::OUT_OF_BOUNDS) return outcome::failure(syntax_error(root, code));
  if (!groups_seen_) groups_error_.note(0, missing(root.field("groups")));
  return outcome::success();
}

Result<void> Loader::check_schema() const {
  if (!schema_) {
    return fail(Status::Parse, "/schema: required string field is missing or not a string");
  }
  const std::string_view schema = *schema_;
  if (schema == kSchema) return outcome::success();
  const bool versioned = schema.size() > kSchemaPrefix.size() &&
                         schema.starts_with(kSchemaPrefix) &&
                         std::all_of(schema.begin() + kSchemaPrefix.size(), schema.end(), is_digit);
  if (versioned) {
    return failf(Status::UnsupportedVersion, "unsupported schema {}; this version reads {}",
                 debug_quoted(schema), debug_quoted(kSchema));
  }
  return failf(Status::Parse, "/schema: unknown schema {}", debug_quoted(schema));
}

Result<void> Loader::read_model(od::value value, const Path& path) {
  EREDU_TRY(is_object,
            expect(value, od::json_type::object, "an object", path, model_error_, 0, Null::Absent));
  if (!is_object) return outcome::success();
  static constexpr std::array<std::string_view, 3> kNames{"name", "layers", "experts"};
  return for_each_field(
      value, path, kNames, model_error_,
      [&](std::size_t index, od::value field, const Path& at) -> Result<void> {
        const auto rank = static_cast<unsigned>(index + 1);
        if (index == 0) {
          EREDU_TRY(name, read_string(field, at, model_error_, rank));
          if (name) info_.name = std::string(*name);
          return outcome::success();
        }
        EREDU_TRY(count, read_uint(field, at, model_error_, rank, Null::Absent));
        if (index == 1) {
          if (count == 0u) {
            model_error_.note(
                rank, fmt::format("{}: the decoder-layer count must be at least 1", at.str()));
            return outcome::success();
          }
          info_.layers = count;
        } else if (count.value_or(0) != 0) {  // 0 routed experts is a dense model: absent
          info_.experts = count;
        }
        return outcome::success();
      });
}

Result<void> Loader::read_groups(od::value value, const Path& path) {
  EREDU_TRY(is_array,
            expect(value, od::json_type::array, "an array", path, groups_error_, 0, Null::Absent));
  if (!is_array) return outcome::success();
  groups_seen_ = true;
  return for_each_item(value, path, [&](od::value item, const Path& at) -> Result<void> {
    EREDU_TRY(read_group(item, at));
    release_consumed(item);
    return outcome::success();
  });
}

// Hands the pages of the input that the parser has passed back to the
// system, so that the input shrinks while the specs grow. On-Demand reads the
// input forward only, and nothing kept refers to the passed part: specs and
// messages own their text, the schema and the root's unknown keys are
// copied, and paths name known fields by the static names.
void Loader::release_consumed(od::value& value) {
#ifdef __linux__
  constexpr std::uintptr_t kStep = std::uintptr_t{1} << 20;  // bytes per madvise call
  static const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  const char* location = nullptr;
  if (value.current_location().get(location) != simdjson::SUCCESS) return;
  const auto at = reinterpret_cast<std::uintptr_t>(location);
  if (at < unreleased_ || at > input_end_) return;
  // Whole pages only, one page behind the parser's position.
  const std::uintptr_t begin = (unreleased_ + page - 1) / page * page;
  const std::uintptr_t end = at / page * page;
  if (end < begin + page + kStep) return;
  if (madvise(reinterpret_cast<void*>(begin), end - page - begin, MADV_DONTNEED) == 0) {
    unreleased_ = end - page;
  }
#else
  (void)value;
#endif
}

Result<void> Loader::read_group(od::value value, const Path& path) {
  FirstError error;
  EREDU_TRY(is_object,
            expect(value, od::json_type::object, "an object", path, error, 0, Null::Rejected));
  std::optional<std::string_view> name;
  std::optional<ParameterRole> role;
  std::optional<std::uint64_t> units;
  GroupScope scope;
  bool members_seen = false;
  members_scratch_.clear();
  formats_scratch_.clear();
  static constexpr std::array<std::string_view, 5> kNames{"name", "role", "partition_units",
                                                          "scope", "members"};
  if (is_object) {
    EREDU_TRY(for_each_field(
        value, path, kNames, error,
        [&](std::size_t index, od::value field, const Path& at) -> Result<void> {
          const auto rank = static_cast<unsigned>(index + 1);
          switch (index) {
            case 0: {
              EREDU_TRY(text, read_string(field, at, error, rank));
              name = text;
              return outcome::success();
            }
            case 1: {
              EREDU_TRY(text, read_string(field, at, error, rank));
              if (!text) return outcome::success();
              role = parse_role(*text);
              if (!role) {
                error.note(rank, fmt::format("{}: unknown role {}", at.str(), debug_quoted(*text)));
              }
              return outcome::success();
            }
            case 2: {
              EREDU_TRY(count, read_uint(field, at, error, rank, Null::Absent));
              units = count;
              return outcome::success();
            }
            case 3: {
              EREDU_TRY(parsed, read_scope(field, at, error));
              scope = parsed;
              return outcome::success();
            }
            default: {
              EREDU_TRY(is_array, expect(field, od::json_type::array, "an array", at, error, rank,
                                         Null::Absent));
              if (!is_array) return outcome::success();
              members_seen = true;
              FirstError members_error;
              EREDU_TRY(for_each_item(field, at, [&](od::value item, const Path& item_path) {
                return read_member(item, item_path, members_error);
              }));
              error.note(rank, members_error.take());
              return outcome::success();
            }
          }
        }));
    if (!name) error.note(1, missing(path.field("name")));
    if (!role) error.note(2, missing(path.field("role")));
    if (!members_seen) error.note(5, missing(path.field("members")));
  }
  if (groups_error_ || error) {
    groups_error_.note(0, error.take());
    return outcome::success();
  }
  if (group_build_error_) return outcome::success();
  std::vector<ParameterMemberSpec> members(std::make_move_iterator(members_scratch_.begin()),
                                           std::make_move_iterator(members_scratch_.end()));
  members_scratch_.clear();
  auto group =
      units ? ParameterGroupSpec::partitioned(std::string(*name), *role, *units, std::move(members),
                                              scope)
            : ParameterGroupSpec::create(std::string(*name), *role, std::move(members), scope);
  if (!group) {
    group_build_error_ = std::move(group).error();
    return outcome::success();
  }
  if (!formats_scratch_.empty()) {
    formats_.emplace_back(
        groups_.size(), std::vector<MemberFormat>(std::make_move_iterator(formats_scratch_.begin()),
                                                  std::make_move_iterator(formats_scratch_.end())));
    formats_scratch_.clear();
  }
  groups_.push_back(std::move(group).value());
  return outcome::success();
}

Result<void> Loader::read_member(od::value value, const Path& path, FirstError& group_error) {
  FirstError error;
  EREDU_TRY(is_object,
            expect(value, od::json_type::object, "an object", path, error, 0, Null::Rejected));
  if (!is_object) {
    group_error.note(0, error.take());
    return outcome::success();
  }
  std::optional<std::string_view> target;
  bool shape_seen = false;
  std::optional<Dtype> dtype;
  std::optional<MemberSharding> sharding;
  std::optional<FormatDeclaration> format;
  shape_scratch_.clear();
  static constexpr std::array<std::string_view, 5> kNames{"target", "shape", "dtype", "sharding",
                                                          "format"};
  EREDU_TRY(for_each_field(
      value, path, kNames, error,
      [&](std::size_t index, od::value field, const Path& at) -> Result<void> {
        const auto rank = static_cast<unsigned>(index + 1);
        switch (index) {
          case 0: {
            EREDU_TRY(text, read_string(field, at, error, rank));
            target = text;
            return outcome::success();
          }
          case 1: {
            EREDU_TRY(is_array, expect(field, od::json_type::array, "an array", at, error, rank,
                                       Null::Absent));
            if (!is_array) return outcome::success();
            shape_seen = true;
            return for_each_item(
                field, at, [&](od::value item, const Path& item_path) -> Result<void> {
                  EREDU_TRY(dimension, read_uint(item, item_path, error, rank, Null::Rejected));
                  if (dimension) shape_scratch_.push_back(*dimension);
                  return outcome::success();
                });
          }
          case 2: {
            EREDU_TRY(text, read_string(field, at, error, rank));
            if (!text) return outcome::success();
            dtype = parse_dtype(*text);
            if (!dtype) {
              error.note(rank, fmt::format("{}: unknown dtype {}", at.str(), debug_quoted(*text)));
            }
            return outcome::success();
          }
          case 3: {
            EREDU_TRY(parsed, read_sharding(field, at, error));
            sharding = std::move(parsed);
            return outcome::success();
          }
          default: {
            EREDU_TRY(parsed, read_format(field, at, error));
            format = std::move(parsed);
            return outcome::success();
          }
        }
      }));
  if (!target) error.note(1, missing(path.field("target")));
  if (!shape_seen) error.note(2, missing(path.field("shape")));
  if (!sharding) error.note(4, missing(path.field("sharding")));
  // Specs are only built while the whole document can still load.
  if (error || group_error || groups_error_ || group_build_error_) {
    group_error.note(0, error.take());
    return outcome::success();
  }
  if (format) formats_scratch_.push_back({members_scratch_.size(), std::move(*format)});
  members_scratch_.emplace_back(
      std::string(*target),
      std::vector<std::uint64_t>(shape_scratch_.begin(), shape_scratch_.end()),
      std::move(*sharding), dtype);
  return outcome::success();
}

Result<std::optional<MemberSharding>> Loader::read_sharding(od::value value, const Path& path,
                                                            FirstError& member_error) {
  constexpr unsigned kRank = 4;  // of `sharding` inside a member
  FirstError error;
  EREDU_TRY(is_object, expect(value, od::json_type::object, "an object", path, member_error, kRank,
                              Null::Absent));
  if (!is_object) return std::optional<MemberSharding>{};
  std::optional<ShardingKind> kind;
  std::optional<std::uint64_t> axis;
  bool segments_seen = false;
  segments_scratch_.clear();
  static constexpr std::array<std::string_view, 3> kNames{"kind", "axis", "segments"};
  EREDU_TRY(for_each_field(
      value, path, kNames, error,
      [&](std::size_t index, od::value field, const Path& at) -> Result<void> {
        const auto rank = static_cast<unsigned>(index + 1);
        switch (index) {
          case 0: {
            EREDU_TRY(text, read_string(field, at, error, rank));
            if (!text) return outcome::success();
            kind = parse_sharding_kind(*text);
            if (!kind) {
              error.note(
                  rank, fmt::format("{}: unknown sharding kind {}", at.str(), debug_quoted(*text)));
            }
            return outcome::success();
          }
          case 1: {
            EREDU_TRY(number, read_uint(field, at, error, rank, Null::Absent));
            axis = number;
            return outcome::success();
          }
          default: {
            EREDU_TRY(is_array, expect(field, od::json_type::array, "an array", at, error, rank,
                                       Null::Absent));
            if (!is_array) return outcome::success();
            segments_seen = true;
            return for_each_item(
                field, at, [&](od::value item, const Path& item_path) -> Result<void> {
                  EREDU_TRY(is_pair, expect(item, od::json_type::array, "a [start, end] array",
                                            item_path, error, rank, Null::Rejected));
                  if (!is_pair) return outcome::success();
                  std::array<std::uint64_t, 2> bounds{};
                  std::size_t count = 0;
                  EREDU_TRY(for_each_item(
                      item, item_path,
                      [&](od::value bound, const Path& bound_path) -> Result<void> {
                        EREDU_TRY(number,
                                  read_uint(bound, bound_path, error, rank, Null::Rejected));
                        if (number && count < 2) bounds[count] = *number;
                        ++count;
                        return outcome::success();
                      }));
                  if (count != 2) {
                    error.note(rank,
                               fmt::format("{}: expected a [start, end] pair, found {} elements",
                                           item_path.str(), count));
                  }
                  segments_scratch_.push_back(IndexRange{bounds[0], bounds[1]});
                  return outcome::success();
                });
          }
        }
      }));
  if (!kind) {
    error.note(1, missing(path.field("kind")));
  } else {
    const std::string_view name = sharding_kind_name(*kind);
    const bool wants_axis = *kind != ShardingKind::Replicated;
    const bool wants_segments = is_segment_kind(*kind);
    if (wants_axis && !axis) {
      error.note(2,
                 fmt::format("{}: required for sharding kind {}", path.field("axis").str(), name));
    } else if (!wants_axis && axis) {
      error.note(
          2, fmt::format("{}: not allowed for sharding kind {}", path.field("axis").str(), name));
    }
    if (wants_segments && !segments_seen) {
      error.note(
          3, fmt::format("{}: required for sharding kind {}", path.field("segments").str(), name));
    } else if (!wants_segments && segments_seen) {
      error.note(3, fmt::format("{}: not allowed for sharding kind {}",
                                path.field("segments").str(), name));
    }
  }
  if (error) {
    member_error.note(kRank, error.take());
    return std::optional<MemberSharding>{};
  }
  MemberSharding sharding{*kind, axis.value_or(0), {}};
  if (is_segment_kind(*kind))
    sharding.segments.assign(segments_scratch_.begin(), segments_scratch_.end());
  return std::optional<MemberSharding>{std::move(sharding)};
}

// Which `format` fields each kind takes (bit = field index of kNames below);
// `companion_dtype` is optional where allowed, the others are required.
constexpr std::uint32_t kCompanionDtypeBit = 1u << 8;
std::uint32_t format_fields(LinearFormatKind kind) {
  switch (kind) {
    case LinearFormatKind::Dense:
      return 0;
    case LinearFormatKind::Affine:  // group_size, bits, scale, bias
      return (1u << 1) | (1u << 2) | (1u << 6) | (1u << 7) | kCompanionDtypeBit;
    case LinearFormatKind::MxFp4:  // scale
      return 1u << 6;
    case LinearFormatKind::GgufIQuant:  // ggml_type
      return 1u << 3;
    case LinearFormatKind::E4M3BlockFp8:  // block, scale_encoding, scale
      return (1u << 4) | (1u << 5) | (1u << 6) | kCompanionDtypeBit;
  }
  return 0;
}

Result<std::optional<FormatDeclaration>> Loader::read_format(od::value value, const Path& path,
                                                             FirstError& member_error) {
  constexpr unsigned kRank = 5;  // of `format` inside a member
  FirstError error;
  EREDU_TRY(is_object, expect(value, od::json_type::object, "an object", path, member_error, kRank,
                              Null::Absent));
  if (!is_object) return std::optional<FormatDeclaration>{};
  static constexpr std::array<std::string_view, 9> kNames{
      "kind",           "group_size", "bits", "ggml_type",      "block",
      "scale_encoding", "scale",      "bias", "companion_dtype"};
  std::optional<LinearFormatKind> kind;
  FormatDeclaration declaration;
  std::uint32_t present = 0;
  EREDU_TRY(for_each_field(
      value, path, kNames, error,
      [&](std::size_t index, od::value field, const Path& at) -> Result<void> {
        const auto rank = static_cast<unsigned>(index + 1);
        EREDU_TRY(type, type_of(field, at));
        if (type != od::json_type::null) present |= 1u << index;
        switch (index) {
          case 0: {
            EREDU_TRY(text, read_string(field, at, error, rank));
            if (!text) return outcome::success();
            kind = parse_linear_format_kind(*text);
            if (!kind) {
              error.note(rank,
                         fmt::format("{}: unknown format kind {}", at.str(), debug_quoted(*text)));
            }
            return outcome::success();
          }
          case 1:
          case 2: {
            EREDU_TRY(number, read_uint(field, at, error, rank, Null::Absent));
            (index == 1 ? declaration.group_size : declaration.bits) = number.value_or(0);
            return outcome::success();
          }
          case 3: {  // a ggml name or code
            if (type == od::json_type::string) {
              EREDU_TRY(text, read_string(field, at, error, rank));
              const auto code = ggml_code_from_name(*text);
              if (!code) {
                error.note(rank,
                           fmt::format("{}: unknown GGML type {}", at.str(), debug_quoted(*text)));
              }
              declaration.ggml_type = code.value_or(0);
              return outcome::success();
            }
            if (type != od::json_type::number) {
              EREDU_TRY(expect(field, od::json_type::number, "a GGML type name or code", at, error,
                               rank, Null::Absent));
              return outcome::success();
            }
            EREDU_TRY(number, read_uint(field, at, error, rank, Null::Absent));
            declaration.ggml_type = number.value_or(0);
            return outcome::success();
          }
          case 4: {  // [rows, columns]
            EREDU_TRY(is_array, expect(field, od::json_type::array, "a [rows, columns] array", at,
                                       error, rank, Null::Absent));
            if (!is_array) return outcome::success();
            std::size_t count = 0;
            EREDU_TRY(for_each_item(
                field, at, [&](od::value item, const Path& item_path) -> Result<void> {
                  EREDU_TRY(number, read_uint(item, item_path, error, rank, Null::Rejected));
                  if (count == 0) declaration.block_rows = number.value_or(0);
                  if (count == 1) declaration.block_columns = number.value_or(0);
                  ++count;
                  return outcome::success();
                }));
            if (count != 2) {
              error.note(rank, fmt::format("{}: expected a [rows, columns] pair, found {} elements",
                                           at.str(), count));
            }
            return outcome::success();
          }
          case 5: {
            EREDU_TRY(text, read_string(field, at, error, rank));
            if (!text) return outcome::success();
            const auto encoding = parse_block_fp8_scale_encoding(*text);
            if (!encoding) {
              error.note(rank, fmt::format("{}: unknown scale encoding {}", at.str(),
                                           debug_quoted(*text)));
            }
            declaration.scale_encoding = encoding.value_or(BlockFp8ScaleEncoding::FloatingPoint);
            return outcome::success();
          }
          case 6:
          case 7: {
            EREDU_TRY(text, read_string(field, at, error, rank));
            if (text) (index == 6 ? declaration.scale : declaration.bias) = std::string(*text);
            return outcome::success();
          }
          default: {
            EREDU_TRY(text, read_string(field, at, error, rank));
            if (!text) return outcome::success();
            declaration.companion_dtype = parse_dtype(*text);
            if (!declaration.companion_dtype) {
              error.note(rank, fmt::format("{}: unknown dtype {}", at.str(), debug_quoted(*text)));
            }
            return outcome::success();
          }
        }
      }));
  if (!kind) {
    error.note(1, missing(path.field("kind")));
  } else {
    declaration.kind = *kind;
    const std::uint32_t allowed = format_fields(*kind);
    const std::uint32_t required = allowed & ~kCompanionDtypeBit;
    const std::string_view name = linear_format_kind_name(*kind);
    for (std::size_t index = 1; index < kNames.size(); ++index) {
      const std::uint32_t bit = 1u << index;
      const auto rank = static_cast<unsigned>(index + 1);
      if ((required & bit) != 0 && (present & bit) == 0) {
        error.note(rank, fmt::format("{}: required for format kind {}",
                                     path.field(kNames[index]).str(), name));
      } else if ((allowed & bit) == 0 && (present & bit) != 0) {
        error.note(rank, fmt::format("{}: not allowed for format kind {}",
                                     path.field(kNames[index]).str(), name));
      }
    }
  }
  if (error) {
    member_error.note(kRank, error.take());
    return std::optional<FormatDeclaration>{};
  }
  return std::optional<FormatDeclaration>{std::move(declaration)};
}

Result<GroupScope> Loader::read_scope(od::value value, const Path& path, FirstError& group_error) {
  constexpr unsigned kRank = 4;  // of `scope` inside a group
  EREDU_TRY(type, type_of(value, path));
  if (type == od::json_type::string) {
    EREDU_TRY(text, read_string(value, path, group_error, kRank));
    if (text == "embedding") return GroupScope::embedding();
    if (text == "output_head") return GroupScope::output_head();
    if (text == "tied_embedding") return GroupScope::tied_embedding();
    group_error.note(kRank, fmt::format("{}: unknown scope {}", path.str(), debug_quoted(*text)));
    return GroupScope::all();
  }
  EREDU_TRY(is_object, expect(value, od::json_type::object, "a string or an object", path,
                              group_error, kRank, Null::Absent));
  if (!is_object) return GroupScope::all();
  FirstError error;
  std::optional<std::uint64_t> layer;
  std::optional<std::uint64_t> expert;
  static constexpr std::array<std::string_view, 2> kNames{"layer", "expert"};
  EREDU_TRY(for_each_field(value, path, kNames, error,
                           [&](std::size_t index, od::value field, const Path& at) -> Result<void> {
                             const auto rank = static_cast<unsigned>(index + 1);
                             EREDU_TRY(number, read_uint(field, at, error, rank, Null::Absent));
                             (index == 0 ? layer : expert) = number;
                             return outcome::success();
                           }));
  if (!layer && !expert) {
    error.note(
        3, fmt::format("{}: a scope object must hold \"layer\", \"expert\" or both", path.str()));
  }
  group_error.note(kRank, error.take());
  return GroupScope::indexed(layer, expert);
}

}  // namespace

Result<std::shared_ptr<const ModelDescription>> load_groups_json(std::string_view text) {
  Loader loader;
  {  // the padded copy and the parser are freed before the model is built
    PaddedInput padded;
    if (!padded.allocate(text.size())) {
      return fail(Status::OutOfMemory, "out of memory while copying a JSON document");
    }
    if (!text.empty()) std::memcpy(padded.data(), text.data(), text.size());
    EREDU_TRY(loader.parse(padded));
  }
  return std::move(loader).build();
}

Result<std::shared_ptr<const ModelDescription>> load_groups_json_file(const std::string& path) {
  Loader loader;
  {  // the file's contents are freed before the model is built
    errno = 0;
    PaddedInput padded;
    if (auto code = read_file(path, padded)) {
      if (code == simdjson::MEMALLOC) {
        return failf(Status::OutOfMemory, "out of memory while reading {}", debug_quoted(path));
      }
      // fopen/fseek/ftell/fread leave the reason in errno, except for a
      // directory, which opens but has no size.
      int reason = errno;
      std::error_code ignored;
      if (reason == 0 && std::filesystem::is_directory(path, ignored)) reason = EISDIR;
      return failf(Status::Io, "cannot read {}: {}", debug_quoted(path),
                   reason != 0 ? std::generic_category().message(reason)
                               : std::string(simdjson::error_message(code)));
    }
    EREDU_TRY(loader.parse(padded));
  }
  return std::move(loader).build();
}

}  // namespace eredu
