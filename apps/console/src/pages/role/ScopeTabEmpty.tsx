import { Button, Empty, Typography } from "antd";
import { useNavigate } from "react-router";
import { useT } from "../../i18n/index.tsx";
import { findLeaf } from "../../layout/menu-model.ts";
import { useConsole } from "../../store/useConsole.ts";

/** The family's screens where scope rules are added to menus (api-contract §19 seed paths). */
const screens = {
  dataScope: {
    path: "/authority/datascope",
    empty: "role.grantEmpty.dataScope",
    go: "role.grantEmpty.goDataScope",
    ask: "role.grantEmpty.askDataScope",
  },
  apiScope: {
    path: "/authority/apiscope",
    empty: "role.grantEmpty.apiScope",
    go: "role.grantEmpty.goApiScope",
    ask: "role.grantEmpty.askApiScope",
  },
} as const;

interface Props {
  kind: keyof typeof screens;
  /** Called before leaving for the scope screen: the grant dialog closes on the way. */
  onLeave: () => void;
}

/**
 * What a scope tab of the grant dialog shows when no scope rule exists yet: that there are none,
 * and where they are added — a link to that screen when the user's menu has it, else whom to ask.
 */
export function ScopeTabEmpty({ kind, onLeave }: Props) {
  const t = useT();
  const navigate = useNavigate();
  const screen = screens[kind];
  const reachable = useConsole((state) => Boolean(findLeaf(state.menuAll, screen.path)));
  return (
    <Empty
      image={Empty.PRESENTED_IMAGE_SIMPLE}
      data-testid={`grant-empty-${kind}`}
      description={
        <>
          <div>{t(screen.empty)}</div>
          {reachable ? (
            <Button
              type="link"
              data-testid={`grant-empty-go-${kind}`}
              onClick={() => {
                onLeave();
                navigate(screen.path);
              }}
            >
              {t(screen.go)}
            </Button>
          ) : (
            <Typography.Text type="secondary">{t(screen.ask)}</Typography.Text>
          )}
        </>
      }
    />
  );
}
