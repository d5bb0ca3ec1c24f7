/** The character codes the masking passes compare against, named once for every pass. */
export const CODE_MARK = 1;
export const CODE_OPEN_ROUND = 40;
export const CODE_DASH = 45;
export const CODE_DOT = 46;
export const CODE_0 = 48;
export const CODE_9 = 57;
export const CODE_COLON = 58;
export const CODE_LESS = 60;
export const CODE_EQUALS = 61;
export const CODE_GREATER = 62;
export const CODE_OPEN_SQUARE = 91;
export const CODE_OPEN_CURLY = 123;
export const CODE_TILDE = 126;
