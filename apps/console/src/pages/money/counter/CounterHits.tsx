import { Button, Empty, Pagination, Spin, Typography } from "antd";
import { useId } from "react";
import { useT } from "../../../i18n/index.tsx";
import type { CounterHit, CounterMeter, HitPage, OwnerWithAccounts } from "./counter-calls.ts";
import { PAGE_SIZE } from "./counter-calls.ts";
import { LevelTag } from "./LevelTag.tsx";
import { SupplyTag } from "./SupplyTag.tsx";

interface Props {
  page?: HitPage;
  loading: boolean;
  chosenId?: string;
  /** The platform administrator's results span tenants: each hit says whose it is. */
  showTenant?: boolean;
  onChoose: (owner: OwnerWithAccounts) => void;
  onPage: (current: number) => void;
}

/**
 * What the counter's box found: each room with its building, its owner, and every meter of the room
 * on a line of its own (electric and water never added together), with its balance, level and
 * whether it supplies. The owner's name is a button: choosing works from the keyboard too.
 */
export function CounterHits({ page, loading, chosenId, showTenant = false, onChoose, onPage }: Props) {
  const t = useT();
  const hits = page?.records ?? [];
  return (
    <Spin spinning={loading}>
      {hits.length === 0 ? (
        <Empty
          description={`${t("counter.noOwners")} · ${t("counter.noOwnersHint")}`}
          data-testid="counter-no-hits"
        />
      ) : (
        <ul className="counter-hits" aria-label={t("counter.hits")} data-testid="counter-hits">
          {hits.map((hit) => (
            <Hit
              key={`${hit.tenantId}:${hit.key}`}
              hit={hit}
              chosen={hit.owner !== null && hit.owner.id === chosenId}
              showTenant={showTenant}
              onChoose={onChoose}
            />
          ))}
        </ul>
      )}
      <Pagination
        className="counter-hits-pager"
        size="small"
        current={page?.current ?? 1}
        pageSize={PAGE_SIZE}
        total={page?.total ?? 0}
        showSizeChanger={false}
        hideOnSinglePage
        onChange={onPage}
      />
    </Spin>
  );
}

function Hit({
  hit,
  chosen,
  showTenant,
  onChoose,
}: {
  hit: CounterHit;
  chosen: boolean;
  showTenant: boolean;
  onChoose: (owner: OwnerWithAccounts) => void;
}) {
  const t = useT();
  const { owner, room } = hit;
  // The meters' list is named by the room's own text (data) and a translated word beside it.
  const roomId = useId();
  const metersWordId = useId();
  return (
    <li className={chosen ? "counter-hit counter-hit-chosen" : "counter-hit"} data-testid="counter-hit">
      <span id={metersWordId} hidden>
        {t("counter.hitMetersWord")}
      </span>
      <div className="counter-hit-head">
        {showTenant && (
          <span className="counter-hit-tenant" data-testid="counter-hit-tenant" data-value>
            {hit.tenantName}
          </span>
        )}
        {/* data-value: what was typed into the registry, not a label to translate. */}
        <span id={roomId} className="counter-hit-room" data-testid="counter-hit-room" data-value>
          {room ? room.label : t("counter.noRoom")}
        </span>
      </div>
      <div className="counter-hit-owner">
        {owner ? (
          <>
            {/* A text button keeps the name in the body colour: a link's hover colour fails 4.5:1 on a tinted row. */}
            <Button
              type="text"
              size="small"
              aria-pressed={chosen}
              aria-label={t("counter.selectOwner", { name: owner.ownerName })}
              onClick={() => onChoose(owner)}
              data-testid="counter-owner"
              data-value
            >
              {owner.ownerName}
            </Button>
            <span className="counter-code" data-testid="counter-hit-phone">
              {owner.phone}
            </span>
          </>
        ) : (
          <Typography.Text type="secondary" data-testid="counter-hit-vacant">
            {t("counter.vacant")}
          </Typography.Text>
        )}
      </div>
      {hit.meters.length > 0 ? (
        <ul className="counter-hit-meters" aria-labelledby={`${roomId} ${metersWordId}`}>
          {hit.meters.map((meter) => (
            <MeterLine key={`${meter.energyType}:${meter.meterId}`} meter={meter} />
          ))}
        </ul>
      ) : (
        <Typography.Text type="secondary">{t("counter.noMeters")}</Typography.Text>
      )}
    </li>
  );
}

/** One meter: kind, number (whole, never cut), its own balance, its level and its supply. */
function MeterLine({ meter }: { meter: CounterMeter }) {
  const t = useT();
  const { account } = meter;
  return (
    <li data-testid="counter-hit-meter" data-energy={meter.energyType}>
      <span className="counter-hit-energy">{t(`counter.energy.${meter.energyType}`)}</span>
      <span className="counter-code" data-testid="counter-hit-code">
        {meter.productCode}
      </span>
      <span className="counter-hit-money">
        <span className="counter-code" data-testid="counter-hit-balance">
          {account ? account.balance : "—"}
        </span>
        {account && ` ${t("counter.form.yuan")}`}
      </span>
      <LevelTag level={account?.alarmLevel ?? 0} noAccount={!account} />
      <SupplyTag status={meter.switchStatus} />
    </li>
  );
}
