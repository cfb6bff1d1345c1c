# Model of RegSolve's index math (forward and backward by tiles).
import numpy as np
def run(B, M, n, seed):
    rng=np.random.default_rng(seed); NP=B*M
    A=rng.standard_normal((n,n)); A=A@A.T+n*np.eye(n)
    L=np.eye(NP); L[:n,:n]=np.linalg.cholesky(A)
    b=np.zeros(NP); b[:n]=rng.standard_normal(n)
    r={(tx,ty):[[L[tx+B*i,ty+B*j] if (i>j or (i==j and ty+B*j<=tx+B*i)) else 0.0 for j in range(M)] for i in range(M)] for tx in range(B) for ty in range(B)}
    rl=1/np.diag(L)
    vec=b.copy()
    def diag_block(FWD,J,red,dg):
        x=np.array([vec[B*J+l]-sum(red[l*B+k] for k in range(B)) for l in range(B)])
        for s in range(B):
            k=s if FWD else B-1-s
            xk=x[k]*rl[B*J+k]
            x[k]=xk
            for l in range(B):
                lk=dg[l*B+k] if FWD else dg[k*B+l]
                if (l>k if FWD else l<k): x[l]-=lk*xk
        vec[B*J:B*J+B]=x
    for J in range(M):
        red=np.zeros(B*B); dg=np.zeros(B*B)
        for (tx,ty),rr in r.items():
            red[tx*B+ty]=sum(rr[J][j]*vec[ty+B*j] for j in range(J))
            dg[tx*B+ty]=rr[J][J]
        diag_block(True,J,red,dg)
    for J in reversed(range(M)):
        red=np.zeros(B*B); dg=np.zeros(B*B)
        for (tx,ty),rr in r.items():
            red[ty*B+tx]=sum(rr[i][J]*vec[tx+B*i] for i in range(J+1,M))
            dg[tx*B+ty]=rr[J][J]
        diag_block(False,J,red,dg)
    x=np.linalg.solve(A,b[:n])
    return np.max(np.abs(vec[:n]-x))/np.max(np.abs(x)), (np.max(np.abs(vec[n:])) if n < NP else 0.0)
for B,M,n in [(8,13,100),(8,13,104),(8,8,57),(4,7,25),(16,8,113),(8,4,32),(8,5,33)]:
    print(B,M,n,run(B,M,n,n))
