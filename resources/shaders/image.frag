// The image and, over it, the launch grid: which block, thread and warp each pixel belongs to, the
// idle threads the guard switches off, the execution animation and the inspector's selection; all
// from a few uniforms (ARCHITECTURE.md, invariant 5). ui/views/raster_overlay.cpp draws the same picture
// on the CPU for the raster fallback, and the tests compare both with LaunchPlan::thread_of_pixel,
// the kernels' own index functions.
//
// Several programs come from this source: without CVZ_OVERLAY the plain image (the view uses it
// when nothing is drawn over the image, so that costs nothing); with it, the overlay for a 2-D
// launch, or with CVZ_GRID_1D too, for a 1-D launch. Compile-time variants rather than branches on
// uniforms, because CPU renderers (llvmpipe) run both sides of every branch.
//
// Index arithmetic: with CVZ_INT_MATH (GLSL 1.30+) in int, exact for every image a texture can
// hold; without (GLSL 1.10 / ES 2) in float holding whole numbers, exact while flat indices stay
// below 2^24 (a 4K frame; an 8K frame is 33M pixels). IDX is the index type of the current mode;
// GLSL 1.10 has no implicit int->float conversion, so every constant is written IDX(n).
// Quotients of small numbers (pixel coordinates, thread ids: always below 2^24) go through float
// division (fdiv) in both modes: CPU renderers such as llvmpipe vectorise it, not integer division.
#ifdef GL_ES
#ifdef GL_FRAGMENT_PRECISION_HIGH
precision highp float;
#else
precision mediump float;
#endif
#endif

#ifdef CVZ_INT_MATH
#define IDX int
IDX idiv(IDX a, IDX b) { return a / b; }  // a >= 0, b > 0
IDX low24(IDX a) { return a & 16777215; }  // a mod 2^24
#else
#define IDX float
IDX idiv(IDX a, IDX b) { return floor((a + 0.5) / b); }
IDX low24(IDX a) { return a - 16777216.0 * idiv(a, 16777216.0); }
#endif
// a / b for 0 <= a < 2^24, b > 0. The +0.5 keeps floor() away from a quotient that division
// rounded just below a whole number.
IDX fdiv(IDX a, IDX b) { return IDX(floor((float(a) + 0.5) / float(b))); }

uniform vec2 u_image_size;
uniform float u_gray;           // 1.0: show the red channel as grey
varying vec2 v_pixel;

#ifdef CVZ_BUFFER_SOURCE
// The zero-copy display (kernels/cuda/gl_interop.h, ExternalMemory): the kernel's bytes in a buffer
// texture, row after row, fetched by hand (GLSL 1.40). Filtered as the 2-D texture would be:
// nearest while a pixel covers a device pixel or more, bilinear when minified.
uniform samplerBuffer u_texture;

float buffer_byte(ivec2 c) {
    ivec2 size = ivec2(u_image_size);
    c = clamp(c, ivec2(0), size - ivec2(1));
    return texelFetch(u_texture, c.y * size.x + c.x).r;
}

vec4 image_texel(vec2 p) {
    float g;
    if (fwidth(p.x) <= 1.0) {
        g = buffer_byte(ivec2(floor(p)));
    } else {
        vec2 q = p - 0.5;
        ivec2 i = ivec2(floor(q));
        vec2 f = q - floor(q);
        float top = mix(buffer_byte(i), buffer_byte(i + ivec2(1, 0)), f.x);
        float bottom = mix(buffer_byte(i + ivec2(0, 1)), buffer_byte(i + ivec2(1, 1)), f.x);
        g = mix(top, bottom, f.y);
    }
    return vec4(g, g, g, 1.0);
}
#else
uniform sampler2D u_texture;

vec4 image_texel(vec2 p) { return texture2D(u_texture, p / u_image_size); }
#endif

#ifndef CVZ_OVERLAY
void main() {
    vec4 texel = image_texel(v_pixel);
    gl_FragColor = vec4(mix(texel.rgb, texel.rrr, u_gray), 1.0);
}
#else
uniform float u_overlay;        // 1: the grid overlay is on
uniform float u_anim;           // 1: the execution animation is on
uniform float u_show_idle;
uniform float u_opacity;        // of the colour layer
uniform float u_coloring;       // 0 none, 1 block, 2 thread, 3 warp
uniform float u_px;             // image pixels per device pixel
uniform vec2 u_line_fade;       // block boundary strength on vertical / horizontal edges
uniform vec2 u_warp_fade;       // the same for warp boundaries
uniform IDX u_w;                // image width, height
uniform IDX u_h;
uniform IDX u_bx;               // blockDim.x, blockDim.y
uniform IDX u_by;
uniform IDX u_gx;               // gridDim.x, gridDim.y
uniform IDX u_gy;
uniform IDX u_ext_h;            // 2-D: rows of the grid's extent
uniform IDX u_threads;          // 1-D: gridDim.x * blockDim.x
uniform IDX u_items;            // pixels one thread writes: consecutive (1-D) or columns (2-D)
uniform IDX u_warps_per_block;
uniform IDX u_done_end;         // blocks [0, done_end) are done
uniform IDX u_run_end;          // blocks [done_end, run_end) run now
uniform IDX u_warp_block;       // the block whose warps are stepped through (-1: none)
uniform IDX u_warp_done_end;
uniform IDX u_warp_run_end;
uniform IDX u_sel_block;        // outlined (-1: none)
uniform IDX u_sel_x;            // outlined pixel
uniform IDX u_sel_y;
uniform IDX u_hover_block;      // outlined lightly (-1: none)
uniform IDX u_merge_x;          // block lines between groups of merge_x by merge_y blocks (OverlayState::line_merge)
uniform IDX u_merge_y;
uniform sampler2D u_source;     // the kernel's input: pixels of blocks not yet done show it
uniform float u_source_gray;
uniform float u_has_source;
uniform vec4 u_focus;           // the focus ring's inner rectangle x0, y0, x1, y1 (x1 < x0: none)

const vec3 kBackground = vec3(0.188235);   // #303030, as the view clears
const vec3 kBoundary = vec3(0.058824);     // #0f0f0f
const vec3 kGuard = vec3(0.901961, 0.219608, 0.2);
const vec3 kRunning = vec3(1.0);
const vec3 kSelection = vec3(1.0, 0.831373, 0.0);
const vec3 kHatchDark = vec3(0.109804);

// One cell of the grid's extent: the thread that maps to it, as LaunchPlan::thread_of_pixel says.
struct Cell {
    bool grid;    // a thread of the launch maps here
    bool inside;  // an image pixel
    bool runs;    // the guard lets the thread write ("active" is reserved in GLSL)
    IDX block;    // linear block id (-1: none)
    IDX thread;   // linear thread id within the block
    IDX warp;
};

Cell cell_at(IDX x, IDX y) {
    Cell c;
    c.grid = false;
    c.inside = false;
    c.runs = false;
    c.block = IDX(-1);
    c.thread = IDX(0);
    c.warp = IDX(0);
    if (x < IDX(0) || y < IDX(0)) return c;
    c.inside = x < u_w && y < u_h;
#ifdef CVZ_GRID_1D
    {
        if (x >= u_w) return c;
        IDX i = y * u_w + x;  // the flat index: rows continue past the last pixel
        IDX span = u_threads * u_items;       // pixels one pass of the grid covers
        // Past the grid: outside the image nothing runs; inside it, a grid sized in waves covers the
        // rest in further passes of its grid-stride loop (pass = i / span).
        if (i >= span && !c.inside) return c;
        c.grid = true;
        IDX t = idiv(i - span * idiv(i, span), u_items);  // the thread's index: i mod span = t * items + j
        c.block = idiv(t, u_bx);              // t = blockIdx.x * blockDim.x + threadIdx.x
        c.thread = t - c.block * u_bx;
        c.runs = c.inside;                  // if (i < n)
    }
#else
    {
        if (x >= u_gx * u_bx * u_items || y >= u_ext_h) return c;
        c.grid = true;
        IDX rows = u_gy * u_by;               // one pass of the grid-stride loop in y
        IDX yy = y - rows * fdiv(y, rows);
        IDX col = fdiv(x, u_items);           // the thread's column: x = col * items + j
        IDX bx = fdiv(col, u_bx);
        IDX by = fdiv(yy, u_by);
        c.block = by * u_gx + bx;             // x fastest
        c.thread = (yy - by * u_by) * u_bx + (col - bx * u_bx);
        c.runs = c.inside;                  // if (c < w && r < h)
    }
#endif
    c.warp = fdiv(c.thread, IDX(32));
    return c;
}

// HSV to RGB: the same piecewise-linear function as QColor::fromHsvF(h, s, v).toRgb(), written
// without branches.
vec3 hsv(float h, float s, float v) {
    vec3 ramp = clamp(abs(fract(vec3(h) + vec3(1.0, 2.0 / 3.0, 1.0 / 3.0)) * 6.0 - 3.0) - 1.0, 0.0, 1.0);
    return v * mix(vec3(1.0), ramp, s);
}

// ui/views/block_colors.cpp, color_for_id: the hue is fract((id mod 2^24) * golden ratio), in float.
vec3 id_color(IDX id, float value) {
    float h = float(low24(id)) * 0.61803398874989484820;
    return hsv(h - floor(h), 0.65, value);
}

// color_for_warp(block, warp, warps_per_block).
vec3 warp_color(IDX block, IDX warp) {
    float last = float(u_warps_per_block - IDX(1));
    float ramp = last > 0.0 ? float(warp) / last : 0.0;
    float odd = float(warp - IDX(2) * fdiv(warp, IDX(2)));
    return id_color(block, 0.95 - 0.3 * ramp - 0.2 * odd);
}

// color_for_thread(thread, threads_per_block).
vec3 thread_color(IDX thread) {
    float last = float(u_bx * u_by - IDX(1));
    float t = last > 0.0 ? float(thread) / last : 0.0;
    return hsv(0.8 * t, 0.65, 0.95);
}

vec3 mode_color(Cell c) {
    if (u_coloring < 1.5) return id_color(c.block, 0.95);
    if (u_coloring < 2.5) return thread_color(c.thread);
    return warp_color(c.block, c.warp);
}

// 0: done, 1: running, 2: waiting. In the stepped block, warps instead of blocks.
float state_of(Cell c) {
    if (u_anim < 0.5) return 0.0;
    if (c.block == u_warp_block) return c.warp < u_warp_done_end ? 0.0 : (c.warp < u_warp_run_end ? 1.0 : 2.0);
    return c.block < u_done_end ? 0.0 : (c.block < u_run_end ? 1.0 : 2.0);
}

// Two cells belong to the same unit of the animation: the same block, and in the stepped block
// the same warp.
bool same_unit(Cell a, Cell b) {
    return a.block == b.block && (a.block != u_warp_block || a.warp == b.warp);
}

// The group of blocks whose outer lines are drawn when blocks are too small on screen for each
// block's own (OverlayState::line_merge): 1-D, runs of merge_x blocks; 2-D, merge_x by merge_y.
IDX line_group(IDX block) {
#ifdef CVZ_GRID_1D
    return fdiv(block, u_merge_x);
#else
    IDX by = fdiv(block, u_gx);
    IDX bx = block - by * u_gx;
    return fdiv(by, u_merge_y) * u_gx + fdiv(bx, u_merge_x);
#endif
}

// A ring, 2 device pixels white and 1 dark outside, around running units too small to see
// (OverlayState::focusRing).
vec3 focus(vec2 p, vec3 col) {
    if (u_focus.z < u_focus.x) return col;
    vec2 c = 0.5 * (u_focus.xy + u_focus.zw);
    vec2 h = 0.5 * (u_focus.zw - u_focus.xy);
    float d = max(abs(p.x - c.x) - h.x, abs(p.y - c.y) - h.y);
    if (d >= 0.0 && d < 2.0 * u_px) return kRunning;
    if (d >= 2.0 * u_px && d < 3.0 * u_px) return kBoundary;
    return col;
}

void main() {
    vec2 p = v_pixel;
    vec4 texel = image_texel(p);
    vec3 image = mix(texel.rgb, texel.rrr, u_gray);

    IDX cx = IDX(floor(p.x));
    IDX cy = IDX(floor(p.y));
    Cell c = cell_at(cx, cy);
    if (!c.grid) {  // past the last thread of a 1-D grid
        gl_FragColor = vec4(focus(p, kBackground), 1.0);
        return;
    }
    bool overlay = u_overlay > 0.5;
    bool anim = u_anim > 0.5;
    bool colored = overlay && u_coloring > 0.5;
    vec3 col = kBackground;

    // The pixel: the kernel's output once its block (or warp) is done, the input before.
    float state = state_of(c);
    vec3 tint = colored ? mode_color(c) : id_color(c.block, 0.95);
    if (c.inside) {
        col = image;
        if (state > 0.5 && u_has_source > 0.5) {
            vec4 s = texture2D(u_source, p / u_image_size);
            col = mix(s.rgb, s.rrr, u_source_gray);
        }
        if (anim && u_warp_block >= IDX(0) && c.block != u_warp_block) col *= 0.45;
        // While the animation plays only running blocks (warps) are tinted, in the colour the SM
        // panel gives them: done (grey) and waiting (input colour) pixels show as they are.
        float a = colored && !anim ? u_opacity : 0.0;
        if (state > 0.5 && state < 1.5) a = colored ? max(u_opacity, 0.6) : 0.6;
        col = mix(col, tint, a);
    } else if (overlay && u_show_idle > 0.5) {
        // A thread the guard switches off: hatched, in its own colour.
        float stripe = mod(floor((gl_FragCoord.x + gl_FragCoord.y) / 4.0), 2.0);
        col = stripe < 0.5 ? (colored ? tint : vec3(0.6)) * 0.6 : kHatchDark;
    }

    // Boundaries, one device pixel wide, on the cell's left and top edges: where the cell one
    // device pixel to the left (above) belongs elsewhere. This also draws the 1-D staircase.
    // Looked up only where the offset leaves the cell: inside a cell they are the cell itself.
    Cell l1 = c;
    Cell u1 = c;
    Cell l2 = c;
    Cell u2 = c;
    IDX lx2 = IDX(floor(p.x - 2.0 * u_px));
    IDX uy2 = IDX(floor(p.y - 2.0 * u_px));
    if (lx2 != cx) {
        IDX lx1 = IDX(floor(p.x - u_px));
        l2 = cell_at(lx2, cy);
        if (lx1 == lx2) l1 = l2;
        else if (lx1 != cx) l1 = cell_at(lx1, cy);
    }
    if (uy2 != cy) {
        IDX uy1 = IDX(floor(p.y - u_px));
        u2 = cell_at(cx, uy2);
        if (uy1 == uy2) u1 = u2;
        else if (uy1 != cy) u1 = cell_at(cx, uy1);
    }
    if (overlay) {
        // The guard's bound, two device pixels wide: where image pixels meet idle threads.
        bool guard = u_show_idle > 0.5 && ((l2.grid && l2.inside != c.inside) || (u2.grid && u2.inside != c.inside));
        if (guard) {
            col = mix(col, kGuard, 0.9);
        } else {
            bool warps = u_coloring > 2.5 || (anim && c.block == u_warp_block);
            IDX group = line_group(c.block);
            float ax = l1.block != c.block ? (line_group(l1.block) != group ? u_line_fade.x : 0.0)
                                           : (warps && l1.warp != c.warp ? 0.4 * u_warp_fade.x : 0.0);
            float ay = u1.block != c.block ? (line_group(u1.block) != group ? u_line_fade.y : 0.0)
                                           : (warps && u1.warp != c.warp ? 0.4 * u_warp_fade.y : 0.0);
            col = mix(col, kBoundary, 0.75 * max(ax, ay));
        }
    }

    // Outlines two device pixels wide: running blocks (warps) and the selected block.
    bool edge_l = !same_unit(l2, c);
    bool edge_u = !same_unit(u2, c);
    if (anim && (edge_l || edge_u)) {
        bool running = state > 0.5 && state < 1.5;
        bool l_running = edge_l && l2.grid && state_of(l2) > 0.5 && state_of(l2) < 1.5;
        bool u_running = edge_u && u2.grid && state_of(u2) > 0.5 && state_of(u2) < 1.5;
        if (running || l_running || u_running) col = mix(col, kRunning, 0.9);
    }
    // The block under the mouse, lighter than the selection (which is drawn over it).
    if (u_hover_block >= IDX(0)) {
        bool own = c.block == u_hover_block && (l2.block != c.block || u2.block != c.block);
        bool next = (l2.block == u_hover_block && l2.block != c.block) || (u2.block == u_hover_block && u2.block != c.block);
        if (own || next) col = mix(col, kSelection, 0.5);
    }
    if (u_sel_block >= IDX(0)) {
        bool own = c.block == u_sel_block && (l2.block != c.block || u2.block != c.block);
        bool next = (l2.block == u_sel_block && l2.block != c.block) || (u2.block == u_sel_block && u2.block != c.block);
        if (own || next) col = kSelection;
    }
    if (cx == u_sel_x && cy == u_sel_y) {
        vec2 f = p - floor(p);
        float w = 1.5 * u_px;
        if (f.x < w || f.y < w || f.x > 1.0 - w || f.y > 1.0 - w) col = kSelection;
    }
    gl_FragColor = vec4(focus(p, col), 1.0);
}
#endif  // CVZ_OVERLAY
