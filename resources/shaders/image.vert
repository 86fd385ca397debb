// Draws the image as one quad: the image, or with the overlay on, the launch grid's full extent
// (idle threads lie past the image's right and bottom edges). Written for GLSL 1.10 / GLSL ES 1.00;
// the view prepends "#version 130" and CVZ_INT_MATH where integer arithmetic is available, so the
// same source serves both (see image.frag).
attribute vec2 a_corner;        // the unit quad: (0,0) .. (1,1)
uniform mat4 u_image_to_clip;   // image pixels -> clip space (zoom, pan, y down)
uniform vec2 u_quad_size;       // the drawn area, in image pixels, from the image's top-left corner
varying vec2 v_pixel;           // image pixel coordinates: pixel (x, y) covers [x, x+1) x [y, y+1)

void main() {
    v_pixel = a_corner * u_quad_size;
    gl_Position = u_image_to_clip * vec4(v_pixel, 0.0, 1.0);
}
