/*
 * Compiles a PTX file to a cubin through the PTX compiler library
 * interface, as a program written against NVIDIA's nvPTXCompiler.h does.
 * The same source builds against NVIDIA's header and library and against
 * ptx2sass's (capi/tests/c_program.rs does both).
 *
 *   compile FILE.ptx OUT.cubin [ptxas options...]
 *
 * Prints the library version, the info log on stdout, the error log on
 * stderr; exits with 0 on success, else the nvPTXCompileResult (1-10)
 * or 20 for a problem of its own (a file it cannot read or write).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <nvPTXCompiler.h>

static char *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *buf = NULL;
    size_t cap = 0, n = 0, got;
    do {
        if (n == cap) {
            cap = cap ? 2 * cap : 4096;
            char *grown = realloc(buf, cap);
            if (!grown) { free(buf); fclose(f); return NULL; }
            buf = grown;
        }
        got = fread(buf + n, 1, cap - n, f);
        n += got;
    } while (got > 0);
    fclose(f);
    *len = n;
    return buf;
}

/* Prints a log (GetErrorLogSize/GetErrorLog or the info pair) to `out`. */
static int print_log(nvPTXCompilerHandle compiler, FILE *out, int error) {
    size_t size = 0;
    nvPTXCompileResult r = error ? nvPTXCompilerGetErrorLogSize(compiler, &size) : nvPTXCompilerGetInfoLogSize(compiler, &size);
    if (r != NVPTXCOMPILE_SUCCESS) return (int)r;
    if (size == 0) return 0;
    char *log = malloc(size + 1);
    if (!log) return 20;
    r = error ? nvPTXCompilerGetErrorLog(compiler, log) : nvPTXCompilerGetInfoLog(compiler, log);
    log[size] = 0;
    if (r == NVPTXCOMPILE_SUCCESS) fputs(log, out);
    free(log);
    return (int)r;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: compile FILE.ptx OUT.cubin [ptxas options...]\n");
        return 20;
    }
    unsigned int major = 0, minor = 0;
    if (nvPTXCompilerGetVersion(&major, &minor) != NVPTXCOMPILE_SUCCESS) return 20;
    printf("nvPTXCompiler %u.%u\n", major, minor);

    size_t len = 0;
    char *ptx = read_file(argv[1], &len);
    if (!ptx) { fprintf(stderr, "cannot read %s\n", argv[1]); return 20; }

    nvPTXCompilerHandle compiler = NULL;
    nvPTXCompileResult r = nvPTXCompilerCreate(&compiler, len, ptx);
    if (r != NVPTXCOMPILE_SUCCESS) { free(ptx); return (int)r; }

    r = nvPTXCompilerCompile(compiler, argc - 3, (const char *const *)(argv + 3));
    print_log(compiler, stdout, 0);
    if (r != NVPTXCOMPILE_SUCCESS) {
        print_log(compiler, stderr, 1);
        nvPTXCompilerDestroy(&compiler);
        free(ptx);
        return (int)r;
    }

    size_t size = 0;
    r = nvPTXCompilerGetCompiledProgramSize(compiler, &size);
    void *cubin = r == NVPTXCOMPILE_SUCCESS ? malloc(size ? size : 1) : NULL;
    if (cubin) r = nvPTXCompilerGetCompiledProgram(compiler, cubin);
    int status = (int)r;
    if (cubin && r == NVPTXCOMPILE_SUCCESS) {
        FILE *out = fopen(argv[2], "wb");
        if (!out || fwrite(cubin, 1, size, out) != size) status = 20;
        if (out && fclose(out) != 0) status = 20;
    }
    free(cubin);
    r = nvPTXCompilerDestroy(&compiler);
    if (status == 0 && r != NVPTXCOMPILE_SUCCESS) status = (int)r;
    free(ptx);
    return status;
}
