/* A plain articulated-body algorithm (Featherstone, Rigid Body Dynamics Algorithms, 2008,
 * Table 7.1) for the chain of bench/models.py's pendulum_cart_bodies(n), written by hand: the
 * physical-limit reference of the benchmark. 6-vectors and 6 x 6 matrices in each body's frame,
 * loops over the bodies, nothing unrolled or specialised beyond the joint types (a prismatic
 * cart along x, revolute joints about z).
 *
 * Arguments as dalembert's emitted functions: x = (x, q1..qn, x', q1'..qn'),
 * p = (g, m0..mn, l1..ln), u = (F); xdot = (x', q', x'', q''). */
#include <math.h>
#include <string.h>

#define MAXB 128

typedef double V6[6];
typedef double M6[6][6];

/* X m for the transform (E, r) from parent to child coordinates. */
static void motion_to_child(const double E[3][3], const double r[3], const V6 m, V6 out)
{
    double v[3] = {m[3] - (r[1] * m[2] - r[2] * m[1]), m[4] - (r[2] * m[0] - r[0] * m[2]),
                   m[5] - (r[0] * m[1] - r[1] * m[0])};
    for (int i = 0; i < 3; i++) {
        out[i] = E[i][0] * m[0] + E[i][1] * m[1] + E[i][2] * m[2];
        out[i + 3] = E[i][0] * v[0] + E[i][1] * v[1] + E[i][2] * v[2];
    }
}

/* X^T f: a force from child to parent coordinates. */
static void force_to_parent(const double E[3][3], const double r[3], const V6 f, V6 out)
{
    double n[3], g[3];
    for (int i = 0; i < 3; i++) {
        n[i] = E[0][i] * f[0] + E[1][i] * f[1] + E[2][i] * f[2];
        g[i] = E[0][i] * f[3] + E[1][i] * f[4] + E[2][i] * f[5];
    }
    out[0] = n[0] + r[1] * g[2] - r[2] * g[1];
    out[1] = n[1] + r[2] * g[0] - r[0] * g[2];
    out[2] = n[2] + r[0] * g[1] - r[1] * g[0];
    out[3] = g[0];
    out[4] = g[1];
    out[5] = g[2];
}

static void cross_motion(const V6 v, const V6 m, V6 out)
{
    out[0] = v[1] * m[2] - v[2] * m[1];
    out[1] = v[2] * m[0] - v[0] * m[2];
    out[2] = v[0] * m[1] - v[1] * m[0];
    out[3] = v[1] * m[5] - v[2] * m[4] + v[4] * m[2] - v[5] * m[1];
    out[4] = v[2] * m[3] - v[0] * m[5] + v[5] * m[0] - v[3] * m[2];
    out[5] = v[0] * m[4] - v[1] * m[3] + v[3] * m[1] - v[4] * m[0];
}

static void cross_force(const V6 v, const V6 f, V6 out)
{
    out[0] = v[1] * f[2] - v[2] * f[1] + v[4] * f[5] - v[5] * f[4];
    out[1] = v[2] * f[0] - v[0] * f[2] + v[5] * f[3] - v[3] * f[5];
    out[2] = v[0] * f[1] - v[1] * f[0] + v[3] * f[4] - v[4] * f[3];
    out[3] = v[1] * f[5] - v[2] * f[4];
    out[4] = v[2] * f[3] - v[0] * f[5];
    out[5] = v[0] * f[4] - v[1] * f[3];
}

static void mul(const M6 a, const V6 v, V6 out)
{
    for (int i = 0; i < 6; i++) {
        double s = 0.0;
        for (int j = 0; j < 6; j++) s += a[i][j] * v[j];
        out[i] = s;
    }
}

int aba_chain(int n, const double *x, const double *p, const double *u, double *xdot)
{
    int nb = n + 1;
    if (nb > MAXB) return -1;
    const double g = p[0], *m = p + 1, *l = p + 2 + n;
    const double *q = x, *qd = x + nb;
    static double E[MAXB][3][3], r[MAXB][3];
    static V6 S[MAXB], v[MAXB], c[MAXB], pa[MAXB], U[MAXB], a[MAXB];
    static M6 IA[MAXB];
    static double D[MAXB], uu[MAXB];
    for (int i = 0; i < nb; i++) {
        memset(E[i], 0, sizeof E[i]);
        memset(S[i], 0, sizeof S[i]);
        memset(IA[i], 0, sizeof IA[i]);
        if (i == 0) { /* the cart: prismatic along x */
            E[i][0][0] = E[i][1][1] = E[i][2][2] = 1.0;
            r[i][0] = q[0]; r[i][1] = r[i][2] = 0.0;
            S[i][3] = 1.0;
            IA[i][3][3] = IA[i][4][4] = IA[i][5][5] = m[0];
        } else { /* revolute about z, at the tip of the previous link */
            double cq = cos(q[i]), sq = sin(q[i]);
            E[i][0][0] = cq; E[i][0][1] = sq; E[i][1][0] = -sq; E[i][1][1] = cq; E[i][2][2] = 1.0;
            r[i][0] = i == 1 ? 0.0 : l[i - 2]; r[i][1] = r[i][2] = 0.0;
            S[i][2] = 1.0;
            /* a point mass m_i at (l_i, 0, 0) */
            double mi = m[i], cx = l[i - 1];
            IA[i][1][1] = IA[i][2][2] = mi * cx * cx;
            IA[i][1][5] = IA[i][5][1] = -mi * cx; /* m c×, c = (l_i, 0, 0) */
            IA[i][2][4] = IA[i][4][2] = mi * cx;
            IA[i][3][3] = IA[i][4][4] = IA[i][5][5] = mi;
        }
        V6 vp = {0, 0, 0, 0, 0, 0}, vj;
        if (i > 0) motion_to_child(E[i], r[i], v[i - 1], vp);
        for (int k = 0; k < 6; k++) { vj[k] = S[i][k] * qd[i]; v[i][k] = vp[k] + vj[k]; }
        cross_motion(v[i], vj, c[i]);
        V6 Iv;
        mul(IA[i], v[i], Iv);
        cross_force(v[i], Iv, pa[i]);
    }
    for (int i = nb - 1; i >= 0; i--) {
        mul(IA[i], S[i], U[i]);
        D[i] = 0.0;
        double sp = 0.0;
        for (int k = 0; k < 6; k++) { D[i] += S[i][k] * U[i][k]; sp += S[i][k] * pa[i][k]; }
        uu[i] = (i == 0 ? u[0] : 0.0) - sp;
        if (i > 0) {
            M6 Ia;
            V6 pp, Ic;
            for (int j = 0; j < 6; j++)
                for (int k = 0; k < 6; k++) Ia[j][k] = IA[i][j][k] - U[i][j] * U[i][k] / D[i];
            mul(Ia, c[i], Ic);
            for (int k = 0; k < 6; k++) pp[k] = pa[i][k] + Ic[k] + U[i][k] * uu[i] / D[i];
            V6 f;
            force_to_parent(E[i], r[i], pp, f);
            for (int k = 0; k < 6; k++) pa[i - 1][k] += f[k];
            /* X^T Ia X, column by column */
            for (int k = 0; k < 6; k++) {
                V6 e = {0, 0, 0, 0, 0, 0}, xe, ixe, col;
                e[k] = 1.0;
                motion_to_child(E[i], r[i], e, xe);
                mul(Ia, xe, ixe);
                force_to_parent(E[i], r[i], ixe, col);
                for (int j = 0; j < 6; j++) IA[i - 1][j][k] += col[j];
            }
        }
    }
    for (int i = 0; i < nb; i++) {
        V6 ap;
        if (i == 0) {
            V6 ground = {0, 0, 0, 0, g, 0}; /* -gravity = (0, g, 0) */
            motion_to_child(E[0], r[0], ground, ap);
        } else {
            motion_to_child(E[i], r[i], a[i - 1], ap);
        }
        double ua = 0.0;
        for (int k = 0; k < 6; k++) { ap[k] += c[i][k]; ua += U[i][k] * ap[k]; }
        double qdd = (uu[i] - ua) / D[i];
        for (int k = 0; k < 6; k++) a[i][k] = ap[k] + S[i][k] * qdd;
        xdot[i] = qd[i];
        xdot[nb + i] = qdd;
    }
    return 0;
}
