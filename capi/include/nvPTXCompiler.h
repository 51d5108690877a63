/*
 * ptx2sass's declarations of the PTX compiler library interface
 * (nvPTXCompiler), for C and C++ programs that link libptx2sass_capi.a or
 * libptx2sass_capi.so. Written for ptx2sass from the interface's function
 * names, signatures and result values; a program written against NVIDIA's
 * header of the same name compiles against this one, and the other way
 * round. The meaning of each call is documented in capi/src/lib.rs.
 */
#ifndef PTX2SASS_NVPTXCOMPILER_H
#define PTX2SASS_NVPTXCOMPILER_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* An opaque compiler handle. */
typedef struct nvPTXCompiler *nvPTXCompilerHandle;

/* What every function returns. */
typedef enum {
    NVPTXCOMPILE_SUCCESS = 0,
    NVPTXCOMPILE_ERROR_INVALID_COMPILER_HANDLE = 1,
    NVPTXCOMPILE_ERROR_INVALID_INPUT = 2,
    NVPTXCOMPILE_ERROR_COMPILATION_FAILURE = 3,
    NVPTXCOMPILE_ERROR_INTERNAL = 4,
    NVPTXCOMPILE_ERROR_OUT_OF_MEMORY = 5,
    NVPTXCOMPILE_ERROR_COMPILER_INVOCATION_INCOMPLETE = 6,
    NVPTXCOMPILE_ERROR_UNSUPPORTED_PTX_VERSION = 7,
    NVPTXCOMPILE_ERROR_UNSUPPORTED_DEVSIDE_SYNC = 8,
    NVPTXCOMPILE_ERROR_CANCELLED = 9,
    NVPTXCOMPILE_PARSE_ONLY_SUCCESS = 10
} nvPTXCompileResult;

/* The interface version (13.5). */
nvPTXCompileResult nvPTXCompilerGetVersion(unsigned int *major, unsigned int *minor);

/* PTX ISA versions read: how many, then (major, minor) rows, oldest first. */
nvPTXCompileResult nvPTXCompilerGetNumSupportedVersions(int *numVersions);
nvPTXCompileResult nvPTXCompilerGetSupportedVersions(int (*versions)[2]);

/* SM numbers code is generated for: how many, then the numbers, ascending. */
nvPTXCompileResult nvPTXCompilerGetNumSupportedArchs(int *numArchs);
nvPTXCompileResult nvPTXCompilerGetSupportedArchs(int *supportedArchs);

/* A compiler for a PTX program of ptxCodeLen bytes; destroyed by Destroy. */
nvPTXCompileResult nvPTXCompilerCreate(nvPTXCompilerHandle *compiler, size_t ptxCodeLen, const char *ptxCode);
nvPTXCompileResult nvPTXCompilerDestroy(nvPTXCompilerHandle *compiler);

/* Compiles with ptxas options ("--gpu-name=sm_90", "-O3", "--verbose", ...). */
nvPTXCompileResult nvPTXCompilerCompile(nvPTXCompilerHandle compiler, int numCompileOptions,
                                        const char *const *compileOptions);

/* The compiled program (a cubin): its size, then its bytes. */
nvPTXCompileResult nvPTXCompilerGetCompiledProgramSize(nvPTXCompilerHandle compiler, size_t *binaryImageSize);
nvPTXCompileResult nvPTXCompilerGetCompiledProgram(nvPTXCompilerHandle compiler, void *binaryImage);

/* The logs of the last compilation: sizes count the terminating zero. */
nvPTXCompileResult nvPTXCompilerGetErrorLogSize(nvPTXCompilerHandle compiler, size_t *errorLogSize);
nvPTXCompileResult nvPTXCompilerGetErrorLog(nvPTXCompilerHandle compiler, char *errorLog);
nvPTXCompileResult nvPTXCompilerGetInfoLogSize(nvPTXCompilerHandle compiler, size_t *infoLogSize);
nvPTXCompileResult nvPTXCompilerGetInfoLog(nvPTXCompilerHandle compiler, char *infoLog);

/* A function asked (with payload) before and after compiling; 1 cancels. */
nvPTXCompileResult nvPTXCompilerSetFlowCallback(nvPTXCompilerHandle compiler, int (*callback)(void *, void *),
                                                void *payload);

#ifdef __cplusplus
}
#endif

#endif /* PTX2SASS_NVPTXCOMPILER_H */
