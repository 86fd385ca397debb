// Samples the image texture. Single-channel textures (GL_R8, or GL_LUMINANCE on ES 2) are swizzled
// to grey here rather than through GL texture swizzle, which ES 2 lacks.
#ifdef GL_ES
#ifdef GL_FRAGMENT_PRECISION_HIGH
precision highp float;
#else
precision mediump float;
#endif
#endif

uniform sampler2D u_texture;
uniform vec2 u_image_size;
uniform float u_gray;           // 1.0: show the red channel as grey
varying vec2 v_pixel;

void main() {
    vec4 texel = texture2D(u_texture, v_pixel / u_image_size);
    gl_FragColor = vec4(mix(texel.rgb, texel.rrr, u_gray), 1.0);
}
