// Draws the image as one quad. GLSL 1.10 / GLSL ES 1.00: no #version, so it compiles on desktop
// compatibility contexts and on OpenGL ES 2 alike.
attribute vec2 a_corner;        // the unit quad: (0,0) .. (1,1)
uniform mat4 u_image_to_clip;   // image pixels -> clip space (zoom, pan, y down)
uniform vec2 u_image_size;      // in image pixels
varying vec2 v_pixel;           // image pixel coordinates; the next issue's overlay reads these too

void main() {
    v_pixel = a_corner * u_image_size;
    gl_Position = u_image_to_clip * vec4(v_pixel, 0.0, 1.0);
}
