// AscendCL on the CPU runtime (acl/acl.h): what single-file kernel programs call around their
// launches. Device memory is GmAlloc memory, so kernels see it as GM with the device's padding
// and bounds; a copy checks its destination's capacity as the device runtime does.
#include "acl/acl.h"

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <string>

#include "aoc/half.h"
#include "runtime/program_launches.h"
#include "tikicpulib.h"

namespace {

std::mutex g_mu;
std::string g_last_error;

aclError fail(aclError code, std::string message) {
  std::lock_guard<std::mutex> g(g_mu);
  g_last_error = std::move(message);
  return code;
}

}  // namespace

aclError aclInit(const char*) { return ACL_SUCCESS; }
aclError aclFinalize() { return ACL_SUCCESS; }
aclError aclrtSetDevice(int32_t deviceId) {
  return deviceId == 0 ? ACL_SUCCESS
                       : fail(ACL_ERROR_INVALID_PARAM, "device " + std::to_string(deviceId) + " does not exist: "
                                                           "the CPU runtime has one device, 0");
}
aclError aclrtResetDevice(int32_t) { return ACL_SUCCESS; }
aclError aclrtGetDeviceCount(uint32_t* count) {
  if (count == nullptr) return fail(ACL_ERROR_INVALID_PARAM, "aclrtGetDeviceCount: count is null");
  *count = 1;
  return ACL_SUCCESS;
}
aclError aclrtCreateContext(aclrtContext* context, int32_t deviceId) {
  if (context == nullptr) return fail(ACL_ERROR_INVALID_PARAM, "aclrtCreateContext: context is null");
  *context = nullptr;
  return aclrtSetDevice(deviceId);
}
aclError aclrtDestroyContext(aclrtContext) { return ACL_SUCCESS; }

aclError aclrtCreateStream(aclrtStream* stream) {
  if (stream == nullptr) return fail(ACL_ERROR_INVALID_PARAM, "aclrtCreateStream: stream is null");
  *stream = new char;  // a distinct handle per stream: launch failures are kept per stream
  return ACL_SUCCESS;
}
aclError aclrtDestroyStream(aclrtStream stream) {
  (void)aoc::runtime::take_stream_error(stream);
  delete static_cast<char*>(stream);
  return ACL_SUCCESS;
}
aclError aclrtSynchronizeStream(aclrtStream stream) {
  const std::string error = aoc::runtime::take_stream_error(stream);
  return error.empty() ? ACL_SUCCESS : fail(ACL_ERROR_RT_AICORE_EXCEPTION, error);
}
aclError aclrtSynchronizeDevice() { return ACL_SUCCESS; }

aclError aclrtMalloc(void** devPtr, size_t size, aclrtMemMallocPolicy) {
  if (devPtr == nullptr || size == 0) return fail(ACL_ERROR_INVALID_PARAM, "aclrtMalloc: null pointer or size 0");
  try {
    *devPtr = AscendC::GmAlloc(size);
  } catch (const std::bad_alloc&) {
    return fail(ACL_ERROR_BAD_ALLOC, "aclrtMalloc: out of memory for " + std::to_string(size) + " bytes");
  }
  return ACL_SUCCESS;
}
aclError aclrtMallocHost(void** hostPtr, size_t size) {
  if (hostPtr == nullptr || size == 0) return fail(ACL_ERROR_INVALID_PARAM, "aclrtMallocHost: null pointer or size 0");
  *hostPtr = std::malloc(size);
  return *hostPtr != nullptr ? ACL_SUCCESS : fail(ACL_ERROR_BAD_ALLOC, "aclrtMallocHost: out of memory");
}
aclError aclrtFree(void* devPtr) {
  try {
    AscendC::GmFree(devPtr);
  } catch (const std::exception& e) {
    return fail(ACL_ERROR_INVALID_PARAM, std::string("aclrtFree: ") + e.what());
  }
  return ACL_SUCCESS;
}
aclError aclrtFreeHost(void* hostPtr) {
  std::free(hostPtr);
  return ACL_SUCCESS;
}

aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind) {
  if (count > destMax)
    return fail(ACL_ERROR_INVALID_PARAM, "aclrtMemcpy: " + std::to_string(count) + " bytes do not fit the destination's " +
                                             std::to_string(destMax));
  if (count != 0 && (dst == nullptr || src == nullptr)) return fail(ACL_ERROR_INVALID_PARAM, "aclrtMemcpy: null pointer");
  if (count != 0) std::memmove(dst, src, count);
  return ACL_SUCCESS;
}
aclError aclrtMemset(void* devPtr, size_t maxCount, int32_t value, size_t count) {
  if (count > maxCount) return fail(ACL_ERROR_INVALID_PARAM, "aclrtMemset: count exceeds maxCount");
  if (count != 0 && devPtr == nullptr) return fail(ACL_ERROR_INVALID_PARAM, "aclrtMemset: null pointer");
  if (count != 0) std::memset(devPtr, value, count);
  return ACL_SUCCESS;
}

const char* aclGetRecentErrMsg() {
  std::lock_guard<std::mutex> g(g_mu);
  return g_last_error.c_str();
}

float aclFloat16ToFloat(aclFloat16 value) { return static_cast<float>(half::from_bits(value)); }
aclFloat16 aclFloatToFloat16(float value) { return half(value).bits; }
