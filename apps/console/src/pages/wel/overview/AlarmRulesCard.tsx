import { Button, Card, Empty, Spin, Typography } from "antd";
import { useCallback } from "react";
import { useNavigate } from "react-router";
import { LoadFailed } from "../../../components/LoadFailed.tsx";
import { useLoaded } from "../../../components/useLoaded.ts";
import { useDictionary } from "../../../crud/dictionary.ts";
import { useI18n } from "../../../i18n/index.tsx";
import { loadRuleCounts } from "../../operation/alarm/alarm-calls.ts";
import { alarmsOfRuleHref, ruleField } from "../../operation/alarm/alarm-filters.ts";
import { useHomeTenant } from "../home-tenant.tsx";

/**
 * Open alarms by rule, most first: a compact table whose bars compare the counts at a glance and
 * whose rule names open 告警记录 on that rule's alarming records (when the user has the screen).
 * A short list of names with numbers reads faster than a chart and needs no legend.
 */
export default function AlarmRulesCard({ canOpen }: { canOpen: boolean }) {
  const { t, language } = useI18n();
  const navigate = useNavigate();
  const tenant = useHomeTenant();
  const load = useCallback(() => loadRuleCounts(tenant), [tenant]);
  const { data, error, loading } = useLoaded(load);
  // Rule names in the console's language; a rule the dictionary does not know yet keeps its record's name.
  const rules = useDictionary(ruleField, language);
  const nameOf = (code: string, fallback: string) =>
    rules.find((rule) => rule.value === code)?.label ?? fallback;
  const rows = data ?? [];
  const most = Math.max(1, ...rows.map((row) => row.count));
  const body = () => {
    if (error) return <LoadFailed error={error} />;
    if (rows.length === 0 && !loading)
      return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("home.alarms.none")} />;
    return (
      <table className="ml-alarm-rules">
        <thead>
          <tr>
            <th scope="col">{t("home.alarms.rule")}</th>
            <th scope="col">{t("home.alarms.count")}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const name = nameOf(row.ruleCode, row.checkRuleName);
            return (
              <tr key={row.ruleCode} data-testid="home-alarm-rule" data-rule={row.ruleCode}>
                <th scope="row">
                  {canOpen ? (
                    <Button
                      type="link"
                      size="small"
                      onClick={() => navigate(alarmsOfRuleHref(row.ruleCode))}
                      title={t("home.alarms.open", { rule: name })}
                    >
                      {name}
                    </Button>
                  ) : (
                    name
                  )}
                </th>
                <td>
                  <div className="ml-alarm-rules-cell">
                    <span className="ml-alarm-rules-bar" style={{ width: `${(row.count / most) * 100}%` }} />
                    <Typography.Text strong data-testid="home-alarm-count">
                      {row.count}
                    </Typography.Text>
                  </div>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    );
  };
  return (
    <Card title={t("home.alarms.title")} data-testid="home-alarms">
      <Spin spinning={loading}>{body()}</Spin>
    </Card>
  );
}
