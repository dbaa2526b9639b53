import { ConfigProvider, theme } from "antd";
import type { ReactNode } from "react";

/**
 * Login and lock screens draw light cards on their own backgrounds; they keep antd's light
 * algorithm (and the user's primary colour) whatever shell theme is chosen.
 */
export function LightSurface({ children }: { children: ReactNode }) {
  return <ConfigProvider theme={{ algorithm: theme.defaultAlgorithm }}>{children}</ConfigProvider>;
}
